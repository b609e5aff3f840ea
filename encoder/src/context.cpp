#include "hydra/encoder/context.hpp"

#include <algorithm>
#include <cstddef>

#include "hydra/game/kyoku.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {

ScoreContext score_context(const std::array<int, 4>& scores, int round, int honba) {
  constexpr double kScale = 100000.0;
  ScoreContext ctx{};
  for (std::size_t i = 0; i < 4; ++i) ctx[i] = static_cast<float>(scores[i] / kScale);
  std::size_t k = 4;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j) ctx[k++] = static_cast<float>((scores[i] - scores[j]) / kScale);
  for (std::size_t i = 0; i < 4; ++i) {
    int need = 0;  // distance to the next higher distinct score
    for (std::size_t j = 0; j < 4; ++j)
      if (scores[j] > scores[i] && (need == 0 || scores[j] - scores[i] < need)) need = scores[j] - scores[i];
    ctx[10 + i] = static_cast<float>(need / kScale);
  }
  ctx[14] = std::min(1.0F, static_cast<float>(round) / 8.0F);
  ctx[15] = static_cast<float>(honba) / 10.0F;
  return ctx;
}

int round_index(const game::PlayerView& view) { return game::round_index(view.bakaze(), view.kyoku()); }

ScoreContext score_context(const game::PlayerView& view) {
  std::array<int, 4> rel{};
  const auto me = ix(view.seat().index());
  for (std::size_t i = 0; i < 4; ++i) rel[i] = view.scores()[(me + i) % 4];
  return score_context(rel, round_index(view), view.honba());
}

}  // namespace hydra::encoder
