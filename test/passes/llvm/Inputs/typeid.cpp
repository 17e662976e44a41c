// typeid of a polymorphic object reads the type information through the
// vtable; typeid of a type names it directly.
#include <cstdio>
#include <typeinfo>

struct Token {
  virtual ~Token() = default;
  virtual int precedence() const { return 0; }
};
struct Plus : Token {
  int precedence() const override { return 1; }
};
struct Times : Token {
  int precedence() const override { return 2; }
};

__attribute__((noinline)) bool isPlus(const Token &token) {
  return typeid(token) == typeid(Plus);
}

int main() {
  Plus plus;
  Times times;
  std::printf("%d %d\n", isPlus(plus), isPlus(times));
  std::printf("%d\n", plus.precedence() + times.precedence());
  return 0;
}
