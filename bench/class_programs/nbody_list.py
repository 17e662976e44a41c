"""n-body as nbody.py (pyperformance's `nbody` constants and steps, a
`Body` class), but with the bodies in a `list[Body]` and the pairs
visited by index loops over it, as code that does not know the number of
bodies writes it (pyperformance's version iterates over a precomputed
list of pairs of bodies). Returns the energy of the system before plus
after n steps."""


class Body:
    x: float
    y: float
    z: float
    vx: float
    vy: float
    vz: float
    mass: float

    def __init__(self, x: float, y: float, z: float, vx: float, vy: float, vz: float,
                 mass: float) -> None:
        self.x = x
        self.y = y
        self.z = z
        self.vx = vx
        self.vy = vy
        self.vz = vz
        self.mass = mass


PI = 3.14159265358979323
SOLAR_MASS = 39.47841760435743      # 4 * PI * PI
DAYS_PER_YEAR = 365.24


def advance(dt: float, n: int, bodies: list[Body]) -> None:
    count = len(bodies)
    for _ in range(n):
        for i in range(count - 1):
            b1 = bodies[i]
            for j in range(i + 1, count):
                b2 = bodies[j]
                dx = b1.x - b2.x
                dy = b1.y - b2.y
                dz = b1.z - b2.z
                mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
                b1m = b1.mass * mag
                b2m = b2.mass * mag
                b1.vx -= dx * b2m
                b1.vy -= dy * b2m
                b1.vz -= dz * b2m
                b2.vx += dx * b1m
                b2.vy += dy * b1m
                b2.vz += dz * b1m
        for b in bodies:
            b.x += dt * b.vx
            b.y += dt * b.vy
            b.z += dt * b.vz


def report_energy(bodies: list[Body]) -> float:
    e = 0.0
    count = len(bodies)
    for i in range(count - 1):
        b1 = bodies[i]
        for j in range(i + 1, count):
            b2 = bodies[j]
            dx = b1.x - b2.x
            dy = b1.y - b2.y
            dz = b1.z - b2.z
            e -= (b1.mass * b2.mass) / ((dx * dx + dy * dy + dz * dz) ** 0.5)
    for b in bodies:
        e += b.mass * (b.vx * b.vx + b.vy * b.vy + b.vz * b.vz) / 2.0
    return e


def offset_momentum(ref: Body, bodies: list[Body]) -> None:
    px = 0.0
    py = 0.0
    pz = 0.0
    for b in bodies:
        px -= b.vx * b.mass
        py -= b.vy * b.mass
        pz -= b.vz * b.mass
    ref.vx = px / ref.mass
    ref.vy = py / ref.mass
    ref.vz = pz / ref.mass


def nbody_list(n: int) -> float:
    bodies = [
        Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS),
        Body(4.84143144246472090e+00, -1.16032004402742839e+00,
             -1.03622044471123109e-01, 1.66007664274403694e-03 * DAYS_PER_YEAR,
             7.69901118419740425e-03 * DAYS_PER_YEAR,
             -6.90460016972063023e-05 * DAYS_PER_YEAR,
             9.54791938424326609e-04 * SOLAR_MASS),
        Body(8.34336671824457987e+00, 4.12479856412430479e+00,
             -4.03523417114321381e-01, -2.76742510726862411e-03 * DAYS_PER_YEAR,
             4.99852801234917238e-03 * DAYS_PER_YEAR,
             2.30417297573763929e-05 * DAYS_PER_YEAR,
             2.85885980666130812e-04 * SOLAR_MASS),
        Body(1.28943695621391310e+01, -1.51111514016986312e+01,
             -2.23307578892655734e-01, 2.96460137564761618e-03 * DAYS_PER_YEAR,
             2.37847173959480950e-03 * DAYS_PER_YEAR,
             -2.96589568540237556e-05 * DAYS_PER_YEAR,
             4.36624404335156298e-05 * SOLAR_MASS),
        Body(1.53796971148509165e+01, -2.59193146099879641e+01,
             1.79258772950371181e-01, 2.68067772490389322e-03 * DAYS_PER_YEAR,
             1.62824170038242295e-03 * DAYS_PER_YEAR,
             -9.51592254519715870e-05 * DAYS_PER_YEAR,
             5.15138902046611451e-05 * SOLAR_MASS),
    ]
    offset_momentum(bodies[0], bodies)
    before = report_energy(bodies)
    advance(0.01, n, bodies)
    return before + report_energy(bodies)
