// A class derived from std::exception, whose type information libstdc++
// defines: code there can apply typeid or dynamic_cast to a Timeout through
// a std::exception reference, so Timeout's type information stays even
// though nothing in this file uses it.
#include <cstdio>
#include <exception>

struct Timeout : std::exception {
  const char *what() const noexcept override { return "timeout"; }
};

struct Clock {
  virtual ~Clock() = default;
  virtual int now() const { return 42; }
};

__attribute__((noinline)) void describe(const std::exception &error) {
  std::printf("%s\n", error.what());
}

__attribute__((noinline)) int read(const Clock &clock) { return clock.now(); }

int main() {
  Timeout timeout;
  describe(timeout);
  Clock clock;
  std::printf("%d\n", read(clock));
  return 0;
}
