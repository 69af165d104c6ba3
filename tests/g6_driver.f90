! g6_driver.f90 - the Hermite block-step code of tests/g6_driver.c in
! Fortran, calling libg6gl through the GRAPE-6 underscore ABI (every
! argument by reference, arrays x(3, n) as C's double[n][3]), as NBODY4
! and phiGRAPE do.  Same scheme (Makino & Aarseth 1992 as glnbody's own
! integrator), same arguments:
!
!   g6_driver_f IN OUT T_END ETA EPS DT_MAX
program g6_driver
  implicit none
  integer, external :: g6_open, g6_close, g6_npipes, g6_set_ti, g6_set_j_particle
  integer, external :: g6calc_firsthalf, g6calc_lasthalf
  integer :: n, npipes, i, k, c, count, blocks, st
  double precision :: t_end, eta, eps, eps2, dt_max, t_next, t1, h, h2, da, s2, s3
  double precision :: an, jn, a2n, a3n, den, crit, phi
  double precision, allocatable :: m(:), x(:,:), v(:,:), a(:,:), jk(:,:), xp(:,:), vp(:,:)
  double precision, allocatable :: t0(:), dt(:), ba(:,:), bj(:,:), bpot(:)
  double precision :: a2(3), a3(3)
  integer, allocatable :: blk(:)
  character(len=256) :: arg, fin, fout

  call get_command_argument(1, fin)
  call get_command_argument(2, fout)
  call get_command_argument(3, arg); read (arg, *) t_end
  call get_command_argument(4, arg); read (arg, *) eta
  call get_command_argument(5, arg); read (arg, *) eps
  call get_command_argument(6, arg); read (arg, *) dt_max
  eps2 = eps * eps

  open (10, file=fin, status='old', action='read')
  read (10, *) n
  allocate (m(n), x(3, n), v(3, n), a(3, n), jk(3, n), xp(3, n), vp(3, n), t0(n), dt(n))
  allocate (ba(3, n), bj(3, n), bpot(n), blk(n))
  do i = 1, n
    read (10, *) m(i), x(:, i), v(:, i)
  end do
  close (10)

  st = g6_open(0)
  if (st < 0) stop 1
  npipes = g6_npipes()
  if (npipes < 1) stop 1
  a = 0; jk = 0; t0 = 0; dt = 0
  do i = 1, n
    call send_j(i)
    blk(i) = i
  end do
  xp = x; vp = v
  call forces(0d0, n)
  t_next = huge(1d0)
  do i = 1, n
    a(:, i) = ba(:, i); jk(:, i) = bj(:, i)
    an = norm2(a(:, i)); jn = norm2(jk(:, i)); phi = abs(bpot(i))
    if (an > 0 .and. jn > 0) then
      crit = eta * an / jn
    else if (an > 0) then
      crit = eta * sqrt(phi) / an
    else if (jn > 0) then
      crit = eta * sqrt(sqrt(phi) / jn)
    else
      crit = huge(1d0)
    end if
    dt(i) = first_step(crit)
    t_next = min(t_next, dt(i))
    call send_j(i)
  end do

  blocks = 0
  do while (t_next <= t_end)
    t1 = t_next
    count = 0
    do i = 1, n
      if (t0(i) + dt(i) /= t1) cycle
      h = t1 - t0(i)
      xp(:, i) = x(:, i) + h * (v(:, i) + h / 2 * (a(:, i) + h / 3 * jk(:, i)))
      vp(:, i) = v(:, i) + h * (a(:, i) + h / 2 * jk(:, i))
      count = count + 1
      blk(count) = i
    end do
    call forces(t1, count)
    do k = 1, count
      i = blk(k)
      h = t1 - t0(i); h2 = h * h
      do c = 1, 3
        da = a(c, i) - ba(c, k)
        s2 = (-6 * da - h * (4 * jk(c, i) + 2 * bj(c, k))) / h2
        s3 = (12 * da + 6 * h * (jk(c, i) + bj(c, k))) / (h2 * h)
        x(c, i) = xp(c, i) + h2 * h2 * (s2 / 24 + h * s3 / 120)
        v(c, i) = vp(c, i) + h2 * h * (s2 / 6 + h * s3 / 24)
        a(c, i) = ba(c, k); jk(c, i) = bj(c, k)
        a2(c) = s2 + h * s3; a3(c) = s3
      end do
      an = norm2(a(:, i)); jn = norm2(jk(:, i)); a2n = norm2(a2); a3n = norm2(a3)
      den = jn * a3n + a2n * a2n
      if (den > 0) then
        crit = sqrt(eta * (an * a2n + jn * jn) / den)
      else
        crit = huge(1d0)
      end if
      t0(i) = t1
      dt(i) = next_step(dt(i), crit, t1)
      call send_j(i)
    end do
    t_next = minval(t0 + dt)
    blocks = blocks + 1
  end do
  st = g6_close(0)

  open (11, file=fout, status='replace', action='write')
  do i = 1, n
    write (11, '(6es26.17e3)') x(:, i), v(:, i)
  end do
  close (11)
  print '(a, i0)', 'blocks ', blocks

contains

  subroutine send_j(i)
    integer, intent(in) :: i
    integer :: address, id
    double precision :: k18(3), j6(3), ah(3)
    k18 = 0; j6 = jk(:, i) / 6; ah = a(:, i) / 2
    address = i - 1; id = i - 1
    if (g6_set_j_particle(0, address, id, t0(i), dt(i), m(i), k18, j6, ah, v(:, i), &
                          x(:, i)) < 0) stop 1
  end subroutine send_j

  ! The forces on blk(1:count) predicted (xp, vp) at t, in chunks of npipes.
  subroutine forces(t, count)
    double precision, intent(in) :: t
    integer, intent(in) :: count
    integer :: at, ni, q
    integer :: index(npipes)
    double precision :: xi(3, npipes), vi(3, npipes), h2i(npipes)
    h2i = 0
    if (g6_set_ti(0, t) < 0) stop 1
    do at = 0, count - 1, npipes
      ni = min(npipes, count - at)
      do q = 1, ni
        index(q) = blk(at + q) - 1
        xi(:, q) = xp(:, blk(at + q)); vi(:, q) = vp(:, blk(at + q))
      end do
      if (g6calc_firsthalf(0, n, ni, index, xi, vi, ba(:, at + 1:), bj(:, at + 1:), &
                           bpot(at + 1:), eps2, h2i) < 0) stop 1
      if (g6calc_lasthalf(0, n, ni, index, xi, vi, eps2, h2i, ba(:, at + 1:), &
                          bj(:, at + 1:), bpot(at + 1:)) < 0) stop 1
    end do
  end subroutine forces

  double precision function first_step(crit)
    double precision, intent(in) :: crit
    if (.not. (crit < dt_max)) then
      first_step = dt_max
    else
      first_step = 2d0 ** (exponent(crit) - 1)
    end if
  end function first_step

  double precision function next_step(step, crit, t1)
    double precision, intent(in) :: step, crit, t1
    next_step = step
    if (crit < step) then
      do while (next_step > crit)
        next_step = next_step / 2
      end do
    else if (crit >= 2 * step .and. 2 * step <= dt_max .and. &
             t1 / (2 * step) == aint(t1 / (2 * step))) then
      next_step = 2 * step
    end if
  end function next_step

end program g6_driver
