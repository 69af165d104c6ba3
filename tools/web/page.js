/* page.js - the page around the library (glnbody.js, glnbody.wasm): the
 * live run's loop, the inspector, "benchmark this device" and its report
 * (the format of `glnbody bench --report`, its machine section read from
 * the browser), and the checks the browser test asks for with ?test=1.
 * Console lines of the form "glnbody-web: ..." are meant for machines. */
'use strict';

var Module = {
  canvas: document.getElementById('canvas'),
  print: function (text) { console.log(text); },
  printErr: function (text) {
    console.error(text);
    var m = /^glnbody-web: error: (.*)$/.exec(text);
    if (m) document.getElementById('error').textContent = m[1];
  },
  onRuntimeInitialized: function () { page.ready(); }
};

var page = (function () {
  var params = new URLSearchParams(location.search);
  var running = false, frames = 0, lastEnergy = 0;
  var STAT = { time: 0, de: 1, rate: 2, force_rate: 3, blocks: 4, steps: 5 };

  function $(id) { return document.getElementById(id); }
  function c(name, ret, types, args) { return Module.ccall(name, ret, types, args); }
  function stat(k) { return c('web_stat', 'number', ['number'], [k]); }
  function later(f) { return new Promise(function (ok) { setTimeout(function () { ok(f()); }, 0); }); }

  function start(n, frameLimit) {
    var cv = $('canvas');
    running = false;
    if (c('web_start', 'number', ['number', 'number', 'number', 'number'],
          [n, 1, cv.width, cv.height]) !== 0)
      return false;
    running = true;
    frames = 0;
    lastEnergy = 0;
    frame(frameLimit);
    return true;
  }

  /* One animation frame: ~30 ms of integration, the energy twice a second. */
  function frame(frameLimit) {
    if (!running) return;
    var cv = $('canvas'), now = performance.now();
    var energy = now - lastEnergy > 500 || frames < 2;
    if (energy) lastEnergy = now;
    if (c('web_frame', 'number', ['number', 'number', 'number', 'number'],
          [0.03, cv.width, cv.height, energy ? 1 : 0]) !== 0) {
      running = false;
      return;
    }
    frames++;
    $('stats').textContent = 't = ' + stat(STAT.time).toFixed(4) +
      '   dE/E = ' + stat(STAT.de).toExponential(2) +
      '   ' + stat(STAT.rate).toExponential(3) + ' interactions/s (wall), ' +
      stat(STAT.force_rate).toExponential(3) + ' in the force passes' +
      '   blocks ' + stat(STAT.blocks);
    $('inspect-text').textContent = c('web_inspect_text', 'string', [], []);
    if (frameLimit && frames >= frameLimit) {
      running = false;
      console.log('glnbody-web: frames ' + frames + ' t ' + stat(STAT.time) + ' de ' +
                  stat(STAT.de).toExponential(3) + ' rate ' + stat(STAT.rate).toExponential(3));
      return;
    }
    if (frameLimit)
      frame(frameLimit);        /* the checks want their frames at once */
    else
      requestAnimationFrame(function () { frame(frameLimit); });
  }

  /* What the browser tells of its GPU and host: the report's machine. */
  function machine() {
    var gl = document.createElement('canvas').getContext('webgl2');
    var g = {
      api: 'WebGL 2 (OpenGL ES 3.0)', es: true, version_used: '3.0', version_obtained: '3.0',
      vendor: 'unknown', renderer: 'unknown', version: '', glsl_version: '',
      renderer_line: c('web_renderer', 'string', [], [])
    };
    if (gl) {
      var dbg = gl.getExtension('WEBGL_debug_renderer_info');
      g.vendor = dbg ? gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR);
      g.renderer = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
      g.unmasked = !!dbg;
      g.version = gl.getParameter(gl.VERSION);
      g.glsl_version = gl.getParameter(gl.SHADING_LANGUAGE_VERSION);
      g.limits = {
        max_texture_size: gl.getParameter(gl.MAX_TEXTURE_SIZE),
        max_draw_buffers: gl.getParameter(gl.MAX_DRAW_BUFFERS),
        max_color_attachments: gl.getParameter(gl.MAX_COLOR_ATTACHMENTS)
      };
      g.features = { compute: false, spirv_shaders: false, fp64: false, int64: false,
                     color_buffer_float: !!gl.getExtension('EXT_color_buffer_float') };
    }
    var cores = navigator.hardwareConcurrency || 0;
    return {
      cpu: { model: 'unknown (a browser does not tell)', logical_cores: cores },
      browser: { user_agent: navigator.userAgent, hardware_concurrency: cores,
                 platform: navigator.platform || '', language: navigator.language || '' },
      gl: g
    };
  }

  var conventions = {
    interactions: "GA and GAJ: N^2 pair interactions an evaluation (the CUDA samples' convention; the CPU's Newton's-third-law loop computes half the pair terms for the same result); MD: atom-steps of velocity Verlet",
    flops_per_interaction: { GA: 20.0, GAJ: 60.0 },
    flops_sources: 'GA: 20 (Nyland et al. 2007, GPU Gems 3 ch. 31); GAJ: 60 (Nitadori & Makino 2008); MD: none counted',
    seconds: 'wall seconds of one evaluation with its upload and read-back (a browser gives WebGL 2 pages no GPU timer by default, and its glFinish need not wait for the GPU), each timed run the mean of enough evaluations to span 20 ms (a browser\'s clock is coarse)',
    error: 'GA, GAJ: max over up to 512 sampled i of |x - x_ref| / sum_j |x_ij| for x = a, phi (and jerk), the reference in double'
  };

  /* GA and GAJ at each N, one row per turn of the event loop. */
  function bench(nList, runs, warmup) {
    var rows = [], skipped = [], jobs = [];
    nList.forEach(function (n) { jobs.push([0, n]); jobs.push([1, n]); });
    running = false;
    function next(k) {
      if (k === jobs.length)
        return Promise.resolve();
      $('bench-status').textContent = (jobs[k][0] ? 'GAJ' : 'GA') + ' at N = ' + jobs[k][1] + '…';
      return later(function () {
        var text = c('web_bench_row', 'string',
                     ['number', 'number', 'number', 'number', 'number', 'number'],
                     [jobs[k][0], jobs[k][1], runs, warmup, 1, 0.01]);
        if (text) rows.push(JSON.parse(text));
        else skipped.push({ kernel: jobs[k][0] ? 'GAJ' : 'GA', backend: 'fragment',
                            variant: 'auto', precision: 'A',
                            reason: c('web_error', 'string', [], []) });
      }).then(function () { return next(k + 1); });
    }
    return next(0).then(function () {
      $('bench-status').textContent = 'done';
      return {
        format: 'glnbody-report', version: 1,
        created: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        software: { name: 'glnbody', version: c('web_version', 'string', [], []),
                    commit: c('web_commit', 'string', [], []),
                    command: 'glnbody web page: benchmark this device (GA, GAJ; fragment; N ' +
                             nList.join(',') + '; runs ' + runs + ', warmup ' + warmup + ')' },
        machine: machine(),
        input: { softening: 0.01, seed: 1, runs: runs, warmup: warmup },
        conventions: conventions, rows: rows, skipped: skipped
      };
    });
  }

  function offer(report) {
    var text = JSON.stringify(report, null, 2) + '\n';
    var blob = new Blob([text], { type: 'application/json' });
    var name = 'glnbody-web-' + report.created.replace(/[:]/g, '') + '.json';
    var links = $('report-links');
    links.textContent = '';
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.textContent = 'Save the report (' + name + ')';
    links.appendChild(a);
    if (navigator.canShare && navigator.canShare({ files: [new File([blob], name)] })) {
      var b = document.createElement('button');
      b.textContent = 'Share the report';
      b.onclick = function () {
        navigator.share({ files: [new File([blob], name, { type: 'application/json' })],
                          title: 'glnbody report' });
      };
      links.appendChild(document.createTextNode(' '));
      links.appendChild(b);
    }
    $('report').textContent = text;
  }

  /* ?test=1: the checks of tools/scripts/test_web.sh, then a live run. */
  function selfTest() {
    var nList = (params.get('bench') || '256,1024').split(',').map(Number);
    return later(function () { c('web_check_forces', 'number', [], []); })
      .then(function () { return later(function () {
        c('web_check_hermite', 'number', ['number', 'number'], [1024, 0.0625]); }); })
      .then(function () { return bench(nList, 5, 1); })
      .then(function (report) {
        offer(report);      /* as the button does: the links and the text */
        console.log('glnbody-web: report ' + JSON.stringify(JSON.parse($('report').textContent)));
        c('web_set_inspect', null, ['number'], [1]);
        start(Number(params.get('n') || 1024), 3);
        var text = c('web_inspect_text', 'string', [], []);
        console.log('glnbody-web: inspect ' + (text.split('\n')[0] || ''));
        console.log('glnbody-web: done');
      });
  }

  function ready() {
    var t = performance.now();
    if (c('web_init', 'number', [], []) !== 0) {
      $('renderer').textContent = 'no WebGL 2 here: ' + c('web_error', 'string', [], []);
      return;
    }
    $('renderer').textContent = c('web_renderer', 'string', [], []);
    console.log('glnbody-web: loaded in ' + Math.round(t) + ' ms');
    $('start').onclick = function () { start(Number($('n').value), 0); };
    $('inspect').onchange = function () { c('web_set_inspect', null, ['number'], [$('inspect').checked ? 1 : 0]); };
    $('bench').onclick = function () {
      var list = $('bench-n').value.split(',').map(Number);
      if (!list.length || list.some(function (n) { return !(n >= 1 && n <= 65536 && n % 1 === 0); })) {
        $('error').textContent = 'N list: whole numbers from 1 to 65536, separated by commas';
        return;
      }
      $('error').textContent = '';
      bench(list, 5, 1).then(offer);
    };
    if (params.get('shot'))      /* the picture alone, for the test's screenshot */
      document.querySelectorAll('header, section').forEach(function (e) { e.style.display = 'none'; });
    if (params.get('test'))
      selfTest();
    else
      start(Number($('n').value), 0);
  }

  return { ready: ready };
})();
