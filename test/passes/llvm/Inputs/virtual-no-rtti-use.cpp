// Virtual functions, multiple and virtual inheritance, no RTTI use:
// kiln-strip-rtti removes every type-info global.
#include <cstdio>
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};

struct Named {
  virtual ~Named() = default;
  virtual const char *name() const = 0;
};

struct Circle : Shape, Named {
  double radius;
  explicit Circle(double radius) : radius(radius) {}
  double area() const override { return 3.0 * radius * radius; }
  const char *name() const override { return "circle"; }
};

struct Rectangle : Shape, Named {
  double width, height;
  Rectangle(double width, double height) : width(width), height(height) {}
  double area() const override { return width * height; }
  const char *name() const override { return "rectangle"; }
};

// A diamond: construction vtables and a VTT.
struct Counted {
  virtual ~Counted() = default;
  virtual int count() const { return 1; }
};
struct Left : virtual Counted {
  int count() const override { return 2; }
};
struct Right : virtual Counted {};
struct Both : Left, Right {
  int count() const override { return Left::count() + 1; }
};

namespace {
struct Square : Rectangle {
  explicit Square(double side) : Rectangle(side, side) {}
  const char *name() const override { return "square"; }
};
} // namespace

__attribute__((noinline)) void report(const Shape &shape, const Named &named) {
  std::printf("%s %.2f\n", named.name(), shape.area());
}

__attribute__((noinline)) int countOf(const Counted &counted) {
  return counted.count();
}

int main() {
  std::vector<std::unique_ptr<Circle>> circles;
  circles.push_back(std::make_unique<Circle>(1.5));
  circles.push_back(std::make_unique<Circle>(2.0));
  for (const auto &circle : circles)
    report(*circle, *circle);
  Rectangle rectangle(2, 3);
  report(rectangle, rectangle);
  Square square(4);
  report(square, square);
  Both both;
  std::printf("count %d\n", countOf(both));
  return 0;
}
