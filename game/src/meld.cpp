#include "hydra/game/meld.hpp"

#include <algorithm>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

[[noreturn]] void bad_meld(const std::string& what) { throw Error("bad meld: " + what); }

std::string name(Pai p) { return std::string(mjai_name(p)); }

void sort_faces(std::array<Pai, 4>& tiles, int n) {
  std::sort(tiles.begin(), tiles.begin() + n, [](Pai a, Pai b) { return a.type() < b.type(); });
}

}  // namespace

Meld Meld::chi(Pai called, Pai own_a, Pai own_b) {
  Meld m;
  m.kind_ = MeldKind::chi;
  m.from_ = From::kamicha;
  m.called_ = called;
  m.tiles_ = {called, own_a, own_b, Pai()};
  sort_faces(m.tiles_, 3);
  const TileType lo = m.tiles_[0].type();
  const bool run = !lo.is_honor() && lo.number() <= 7 && m.tiles_[1].type().index() == lo.index() + 1 &&
                   m.tiles_[2].type().index() == lo.index() + 2;
  if (called.is_unknown() || own_a.is_unknown() || own_b.is_unknown() || !run)
    bad_meld("chi needs three consecutive suited tiles, got " + name(called) + " " + name(own_a) + " " + name(own_b));
  return m;
}

Meld Meld::pon(Pai called, Pai own_a, Pai own_b, From from) {
  if (called.is_unknown() || own_a.type() != called.type() || own_b.type() != called.type() || own_a.is_unknown() ||
      own_b.is_unknown())
    bad_meld("pon needs three tiles of one kind, got " + name(called) + " " + name(own_a) + " " + name(own_b));
  if (from == From::self) bad_meld("a pon is called from another seat");
  Meld m;
  m.kind_ = MeldKind::pon;
  m.from_ = from;
  m.called_ = called;
  m.tiles_ = {called, own_a, own_b, Pai()};
  return m;
}

Meld Meld::daiminkan(Pai called, const std::array<Pai, 3>& own, From from) {
  for (Pai p : own)
    if (p.is_unknown() || called.is_unknown() || p.type() != called.type())
      bad_meld("daiminkan needs four tiles of one kind around " + name(called));
  if (from == From::self) bad_meld("a daiminkan is called from another seat");
  Meld m;
  m.kind_ = MeldKind::daiminkan;
  m.from_ = from;
  m.called_ = called;
  m.tiles_ = {called, own[0], own[1], own[2]};
  return m;
}

Meld Meld::kakan(const Meld& pon, Pai added) {
  if (pon.kind_ != MeldKind::pon || added.is_unknown() || added.type() != pon.first())
    bad_meld("kakan adds the fourth tile of a pon's kind, got " + name(added));
  Meld m = pon;
  m.kind_ = MeldKind::kakan;
  m.tiles_[3] = added;
  return m;
}

Meld Meld::ankan(const std::array<Pai, 4>& tiles) {
  for (Pai p : tiles)
    if (p.is_unknown() || p.type() != tiles[0].type()) bad_meld("ankan needs four tiles of one kind");
  Meld m;
  m.kind_ = MeldKind::ankan;
  m.from_ = From::self;
  m.called_ = tiles[0];
  m.tiles_ = tiles;
  return m;
}

int Meld::red_count() const {
  int n = 0;
  for (int i = 0; i < size(); ++i) n += tile(i).is_red() ? 1 : 0;
  return n;
}

void Meld::add_to(TileCounts& counts) const {
  for (int i = 0; i < size(); ++i) ++counts[static_cast<std::size_t>(tile(i).type().index())];
}

Meld parse_meld(std::string_view text) {
  std::string quoted(1, '\'');
  quoted += text;
  quoted += '\'';  // appended: GCC 12 -Wrestrict false positive on "'" + std::string
  if (text.empty()) bad_meld("empty meld text");
  int base = 0;
  switch (text[0]) {
    case 'm': base = 0; break;
    case 'p': base = 9; break;
    case 's': base = 18; break;
    case 'z': base = 27; break;
    default: bad_meld(quoted + " must start with a suit letter m, p, s or z");
  }
  std::array<Pai, 4> faces{};
  int n = 0, called = -1;
  From from = From::self;
  for (char c : text.substr(1)) {
    if (c >= '0' && c <= '9') {
      if (n == 4) bad_meld(quoted + " has more than four tiles");
      const int d = c - '0';
      if (base == 27 ? (d < 1 || d > 7) : false) bad_meld(quoted + ": honours are 1-7");
      faces[static_cast<std::size_t>(n++)] = d == 0 ? Pai(TileType(base + 4), true) : Pai(TileType(base + d - 1));
    } else if (c == '-' || c == '=' || c == '+') {
      if (called >= 0 || n == 0) bad_meld(quoted + " needs exactly one seat mark (- = +) right after the called tile");
      called = n - 1;
      from = c == '-' ? From::kamicha : c == '=' ? From::toimen : From::shimocha;
    } else {
      bad_meld(quoted + ": unexpected '" + std::string(1, c) + "'");
    }
  }
  if (n < 3) bad_meld(quoted + " has fewer than three tiles");
  if (called < 0) {
    if (n != 4) bad_meld(quoted + ": a called meld needs a seat mark; only an ankan (four tiles) has none");
    return Meld::ankan(faces);
  }
  const Pai c = faces[ix(called)];
  std::array<Pai, 4> own{};
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (i != called) own[static_cast<std::size_t>(k++)] = faces[ix(i)];
  try {
    if (n == 3) {
      if (faces[0].type() == faces[1].type()) return Meld::pon(c, own[0], own[1], from);
      if (from != From::kamicha) bad_meld("a chi is called from kamicha only ('-')");
      return Meld::chi(c, own[0], own[1]);
    }
    if (called == 3) return Meld::daiminkan(c, {own[0], own[1], own[2]}, from);
    // Mark before the last tile: a pon plus the added fourth tile.
    return Meld::kakan(Meld::pon(c, own[0], own[1], from), faces[3]);
  } catch (const Error& e) {
    // Name the text the user wrote.
    std::string what = e.what();
    what.insert(std::string_view("bad meld").size(), " " + quoted);
    throw Error(what);
  }
}

std::string to_string(const Meld& meld) {
  static constexpr char kSuit[] = {'m', 'p', 's', 'z'};
  std::string out(1, kSuit[static_cast<int>(meld.first().suit())]);
  auto digit = [](Pai p) { return p.is_red() ? '0' : static_cast<char>('0' + p.type().number()); };
  const char mark = meld.from() == From::kamicha ? '-' : meld.from() == From::toimen ? '=' : '+';
  if (meld.kind() == MeldKind::ankan) {
    for (int i = 0; i < 4; ++i) out.push_back(digit(meld.tile(i)));
    return out;
  }
  // Own tiles first for pon and kans (called last, then the mark), sorted order for chi.
  bool marked = false;
  if (meld.kind() == MeldKind::chi) {
    for (int i = 0; i < 3; ++i) {
      out.push_back(digit(meld.tile(i)));
      if (!marked && meld.tile(i) == meld.called()) {
        out.push_back(mark);
        marked = true;
      }
    }
    return out;
  }
  const int own = meld.kind() == MeldKind::daiminkan ? 4 : 3;
  for (int i = 0; i < own; ++i)
    if (marked || meld.tile(i) != meld.called()) out.push_back(digit(meld.tile(i)));
    else marked = true;
  out.push_back(digit(meld.called()));
  out.push_back(mark);
  if (meld.kind() == MeldKind::kakan) out.push_back(digit(meld.tile(3)));
  return out;
}

}  // namespace hydra::game
