// Exceptions thrown and caught by class type keep that type information
// (and its bases', which catch matching walks) even under -fno-rtti.
#include <cstdio>

struct Error {
  virtual ~Error() = default;
  virtual const char *what() const { return "error"; }
};
struct ParseError : Error {
  int column;
  explicit ParseError(int column) : column(column) {}
  const char *what() const override { return "parse error"; }
};

struct Logger {
  virtual ~Logger() = default;
  virtual void log(const char *message) const { std::printf("log: %s\n", message); }
};

// Nothing throws or catches a Logger: its type information can go.
__attribute__((noinline)) void report(const Logger &logger, const char *message) {
  logger.log(message);
}

__attribute__((noinline)) int parseDigit(char c) {
  if (c < '0' || c > '9')
    throw ParseError(1);
  return c - '0';
}

int main() {
  Logger logger;
  const char *inputs[] = {"7", "x"};
  for (const char *input : inputs) {
    try {
      std::printf("%d\n", parseDigit(input[0]));
    } catch (const Error &error) {
      report(logger, error.what());
    }
  }
  return 0;
}
