// dynamic_cast needs the type information of Animal's hierarchy; the
// unrelated Shape hierarchy's can still go.
#include <cstdio>

struct Animal {
  virtual ~Animal() = default;
  virtual const char *sound() const = 0;
};
struct Dog : Animal {
  const char *sound() const override { return "woof"; }
  void fetch() const { std::puts("fetching"); }
};
struct Cat : Animal {
  const char *sound() const override { return "meow"; }
};

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const { return 0; }
};
struct Square : Shape {
  double side = 3;
  double area() const override { return side * side; }
};

__attribute__((noinline)) void greet(const Animal &animal) {
  std::printf("%s\n", animal.sound());
  if (const Dog *dog = dynamic_cast<const Dog *>(&animal))
    dog->fetch();
}

__attribute__((noinline)) double measure(const Shape &shape) {
  return shape.area();
}

int main() {
  Dog dog;
  Cat cat;
  greet(dog);
  greet(cat);
  Square square;
  std::printf("%.1f\n", measure(square));
  return 0;
}
