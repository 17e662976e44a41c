// A modest C++ program for docs/ir-quality.md and the kiln-ir-stats test: a
// class hierarchy behind smart pointers, standard containers and strings,
// with no typeid, dynamic_cast or exceptions of its own.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

class Item {
public:
  Item(std::string name, int quantity)
      : name_(std::move(name)), quantity_(quantity) {}
  virtual ~Item() = default;
  virtual double unitPrice() const = 0;
  virtual std::string category() const = 0;
  double value() const { return unitPrice() * quantity_; }
  const std::string &name() const { return name_; }
  int quantity() const { return quantity_; }

private:
  std::string name_;
  int quantity_;
};

class Tool : public Item {
public:
  Tool(std::string name, int quantity, double price)
      : Item(std::move(name), quantity), price_(price) {}
  double unitPrice() const override { return price_; }
  std::string category() const override { return "tool"; }

private:
  double price_;
};

class Food : public Item {
public:
  Food(std::string name, int quantity, double price, int daysLeft)
      : Item(std::move(name), quantity), price_(price), daysLeft_(daysLeft) {}
  // Food close to its date sells at half price.
  double unitPrice() const override { return daysLeft_ < 3 ? price_ / 2 : price_; }
  std::string category() const override { return "food"; }

private:
  double price_;
  int daysLeft_;
};

class Perishable final : public Food {
public:
  using Food::Food;
  std::string category() const override { return "perishable"; }
};

class Inventory {
public:
  void add(std::unique_ptr<Item> item) { items_.push_back(std::move(item)); }

  std::map<std::string, double> valueByCategory() const {
    std::map<std::string, double> totals;
    for (const auto &item : items_)
      totals[item->category()] += item->value();
    return totals;
  }

  const Item *mostValuable() const {
    const Item *best = nullptr;
    for (const auto &item : items_)
      if (!best || item->value() > best->value())
        best = item.get();
    return best;
  }

  int count() const {
    int total = 0;
    for (const auto &item : items_)
      total += item->quantity();
    return total;
  }

private:
  std::vector<std::unique_ptr<Item>> items_;
};

std::shared_ptr<Inventory> makeInventory() {
  auto inventory = std::make_shared<Inventory>();
  inventory->add(std::make_unique<Tool>("hammer", 3, 12.5));
  inventory->add(std::make_unique<Tool>("saw", 1, 30.0));
  inventory->add(std::make_unique<Food>("rice", 10, 2.0, 300));
  inventory->add(std::make_unique<Perishable>("milk", 6, 1.2, 2));
  inventory->add(std::make_unique<Perishable>("bread", 4, 2.5, 5));
  return inventory;
}

// Exported for other translation units; once main is the only public
// symbol (kiln-strip-rtti<public-api=main>), nothing calls it.
double totalValue(const Inventory &inventory) {
  double total = 0;
  for (const auto &[category, value] : inventory.valueByCategory())
    total += value;
  return total;
}

int main() {
  std::shared_ptr<Inventory> inventory = makeInventory();
  for (const auto &[category, value] : inventory->valueByCategory())
    std::printf("%-10s %8.2f\n", category.c_str(), value);
  const Item *best = inventory->mostValuable();
  std::printf("most valuable: %s (%.2f), %d items\n", best->name().c_str(),
              best->value(), inventory->count());
  return 0;
}
