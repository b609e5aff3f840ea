#include "hydra/game/seed.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>

#include "hydra/common/error.hpp"

namespace hydra::game {
namespace {

struct CtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

// Incremental SHA-256 over the pieces of a KDF input.
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new()) {
    HYDRA_CHECK(ctx_ != nullptr && EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) == 1, "SHA-256 init failed");
  }
  Sha256& add(std::span<const std::uint8_t> bytes) {
    HYDRA_CHECK(EVP_DigestUpdate(ctx_.get(), bytes.data(), bytes.size()) == 1, "SHA-256 update failed");
    return *this;
  }
  Sha256& add(std::string_view text) {
    return add(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  Sha256& add_u64(std::uint64_t v) {
    std::array<std::uint8_t, 8> le{};
    for (std::size_t i = 0; i < 8; ++i) le[i] = static_cast<std::uint8_t>(v >> (8 * i));
    return add(le);
  }
  Digest finish() {
    Digest d{};
    unsigned int len = 0;
    HYDRA_CHECK(EVP_DigestFinal_ex(ctx_.get(), d.data(), &len) == 1 && len == d.size(), "SHA-256 final failed");
    return d;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, CtxFree> ctx_;
};

}  // namespace

Digest sha256(std::span<const std::uint8_t> bytes) { return Sha256().add(bytes).finish(); }
Digest sha256(std::string_view text) { return Sha256().add(text).finish(); }

std::string to_hex(const Digest& d) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (std::uint8_t b : d) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

GameKey game_key(MasterSeed master, std::uint64_t game_index) {
  return GameKey(Sha256().add_u64(master.value).add(labels::game).add_u64(game_index).finish());
}

WallKey wall_key(const GameKey& game, std::uint64_t kyoku, std::uint64_t honba) {
  return WallKey(Sha256().add(game.bytes()).add(labels::wall).add_u64(kyoku).add_u64(honba).finish());
}

StreamKey stream_key(MasterSeed master, std::string_view label, std::initializer_list<std::uint64_t> indices) {
  Sha256 h;
  h.add_u64(master.value).add(label);
  for (std::uint64_t i : indices) h.add_u64(i);
  return StreamKey(h.finish());
}

StreamKey derive_bytes(std::span<const std::uint8_t> parent, std::string_view label,
                       std::initializer_list<std::uint64_t> indices) {
  Sha256 h;
  h.add(parent).add(label);
  for (std::uint64_t i : indices) h.add_u64(i);
  return StreamKey(h.finish());
}

std::uint64_t u64(const Digest& d, std::size_t word) {
  HYDRA_CHECK(word < d.size() / 8, "a digest holds 4 words");
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::uint64_t{d[8 * word + i]} << (8 * i);
  return v;
}

double hash_fraction(const StreamKey& key, std::string_view name) {
  return static_cast<double>(u64(Sha256().add(key.bytes()).add(name).finish())) * 0x1.0p-64;
}

MasterSeed random_master_seed() {
  Digest b{};
  HYDRA_CHECK(RAND_bytes(b.data(), 8) == 1, "OS entropy source failed");
  return MasterSeed{u64(b)};
}

}  // namespace hydra::game
