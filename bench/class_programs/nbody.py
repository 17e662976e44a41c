"""n-body: the five outer-planet system of the Computer Language
Benchmarks Game's nbody, as pyperformance's `nbody` benchmark runs it
(its constants: the Sun, Jupiter, Saturn, Uranus and Neptune; dt = 0.01;
offset_momentum against the Sun; report_energy), written here with a
`Body` class (position, velocity, mass) and the five bodies as five
separate instances. pyperformance iterates over a precomputed list of
pairs; this version names the ten pairs explicitly (`interact` of each
pair), so no list of instances is needed. Returns the energy of the
system before plus after n steps."""


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

    def interact(self, other: "Body", dt: float) -> None:
        dx = self.x - other.x
        dy = self.y - other.y
        dz = self.z - other.z
        mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
        b1m = self.mass * mag
        b2m = other.mass * mag
        self.vx -= dx * b2m
        self.vy -= dy * b2m
        self.vz -= dz * b2m
        other.vx += dx * b1m
        other.vy += dy * b1m
        other.vz += dz * b1m

    def move(self, dt: float) -> None:
        self.x += dt * self.vx
        self.y += dt * self.vy
        self.z += dt * self.vz

    def potential(self, other: "Body") -> float:
        dx = self.x - other.x
        dy = self.y - other.y
        dz = self.z - other.z
        return (self.mass * other.mass) / ((dx * dx + dy * dy + dz * dz) ** 0.5)

    def kinetic(self) -> float:
        return self.mass * (self.vx * self.vx + self.vy * self.vy + self.vz * self.vz) / 2.0


PI = 3.14159265358979323
SOLAR_MASS = 39.47841760435743      # 4 * PI * PI
DAYS_PER_YEAR = 365.24


def advance(dt: float, n: int, sun: Body, jupiter: Body, saturn: Body, uranus: Body,
            neptune: Body) -> None:
    for _ in range(n):
        sun.interact(jupiter, dt)
        sun.interact(saturn, dt)
        sun.interact(uranus, dt)
        sun.interact(neptune, dt)
        jupiter.interact(saturn, dt)
        jupiter.interact(uranus, dt)
        jupiter.interact(neptune, dt)
        saturn.interact(uranus, dt)
        saturn.interact(neptune, dt)
        uranus.interact(neptune, dt)
        sun.move(dt)
        jupiter.move(dt)
        saturn.move(dt)
        uranus.move(dt)
        neptune.move(dt)


def report_energy(sun: Body, jupiter: Body, saturn: Body, uranus: Body,
                  neptune: Body) -> float:
    e = 0.0
    e -= sun.potential(jupiter)
    e -= sun.potential(saturn)
    e -= sun.potential(uranus)
    e -= sun.potential(neptune)
    e -= jupiter.potential(saturn)
    e -= jupiter.potential(uranus)
    e -= jupiter.potential(neptune)
    e -= saturn.potential(uranus)
    e -= saturn.potential(neptune)
    e -= uranus.potential(neptune)
    e += sun.kinetic()
    e += jupiter.kinetic()
    e += saturn.kinetic()
    e += uranus.kinetic()
    e += neptune.kinetic()
    return e


def offset_momentum(ref: Body, sun: Body, jupiter: Body, saturn: Body, uranus: Body,
                    neptune: Body) -> None:
    px = 0.0
    py = 0.0
    pz = 0.0
    px -= sun.vx * sun.mass + jupiter.vx * jupiter.mass + saturn.vx * saturn.mass \
        + uranus.vx * uranus.mass + neptune.vx * neptune.mass
    py -= sun.vy * sun.mass + jupiter.vy * jupiter.mass + saturn.vy * saturn.mass \
        + uranus.vy * uranus.mass + neptune.vy * neptune.mass
    pz -= sun.vz * sun.mass + jupiter.vz * jupiter.mass + saturn.vz * saturn.mass \
        + uranus.vz * uranus.mass + neptune.vz * neptune.mass
    ref.vx = px / ref.mass
    ref.vy = py / ref.mass
    ref.vz = pz / ref.mass


def nbody(n: int) -> float:
    sun = Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS)
    jupiter = Body(4.84143144246472090e+00, -1.16032004402742839e+00,
                   -1.03622044471123109e-01, 1.66007664274403694e-03 * DAYS_PER_YEAR,
                   7.69901118419740425e-03 * DAYS_PER_YEAR,
                   -6.90460016972063023e-05 * DAYS_PER_YEAR,
                   9.54791938424326609e-04 * SOLAR_MASS)
    saturn = Body(8.34336671824457987e+00, 4.12479856412430479e+00,
                  -4.03523417114321381e-01, -2.76742510726862411e-03 * DAYS_PER_YEAR,
                  4.99852801234917238e-03 * DAYS_PER_YEAR,
                  2.30417297573763929e-05 * DAYS_PER_YEAR,
                  2.85885980666130812e-04 * SOLAR_MASS)
    uranus = Body(1.28943695621391310e+01, -1.51111514016986312e+01,
                  -2.23307578892655734e-01, 2.96460137564761618e-03 * DAYS_PER_YEAR,
                  2.37847173959480950e-03 * DAYS_PER_YEAR,
                  -2.96589568540237556e-05 * DAYS_PER_YEAR,
                  4.36624404335156298e-05 * SOLAR_MASS)
    neptune = Body(1.53796971148509165e+01, -2.59193146099879641e+01,
                   1.79258772950371181e-01, 2.68067772490389322e-03 * DAYS_PER_YEAR,
                   1.62824170038242295e-03 * DAYS_PER_YEAR,
                   -9.51592254519715870e-05 * DAYS_PER_YEAR,
                   5.15138902046611451e-05 * SOLAR_MASS)
    offset_momentum(sun, sun, jupiter, saturn, uranus, neptune)
    before = report_energy(sun, jupiter, saturn, uranus, neptune)
    advance(0.01, n, sun, jupiter, saturn, uranus, neptune)
    return before + report_energy(sun, jupiter, saturn, uranus, neptune)
