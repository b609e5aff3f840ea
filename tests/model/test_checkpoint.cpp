// Checkpoints: bit-exact round trip, corruption detection, pointers, retention, fallback, resume,
// and the Python-loadable export.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/model/optim.hpp"
#include "hydra/model/summary.hpp"
#include "model_fixtures.hpp"

namespace hydra::model {
namespace {

namespace fs = std::filesystem;

using testing::remove_tree;

class Checkpoints : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = fs::temp_directory_path() / ("hydra-ckpt-" + std::to_string(::getpid()) + "-" + info->name());
    remove_tree(dir);
    fs::create_directories(dir);
    config.model = testing::tiny_config(2);
  }
  void TearDown() override { remove_tree(dir); }

  // `steps` AdamW updates on random batches drawn from torch's global RNG (so a resumed run is
  // only identical if the RNG state came back too). Returns each step's loss.
  std::vector<double> train(HydraNetImpl& net, torch::optim::Optimizer& opt, std::int64_t from, int steps) {
    const auto schedule = WarmupCosine::spec(20, 1e-2, 1e-4);
    std::vector<double> losses;
    for (std::int64_t s = from; s < from + steps; ++s) {
      set_lr(opt, schedule.lr(s));
      const auto batch = testing::random_batch(4);
      opt.zero_grad();
      const auto l = compute_losses(net.forward(batch.obs, batch.ctx), batch.targets, config.model).total;
      l.backward();
      opt.step();
      losses.push_back(l.item<double>());
    }
    return losses;
  }

  CheckpointData data_at(std::int64_t step) const {
    CheckpointData d;
    d.step = step;
    d.config = config::to_json(config);
    d.metrics = {{"loss", 0.5 + static_cast<double>(step)}};
    d.scheduler = WarmupCosine::spec(20).to_json();
    d.extra = {{"games", 40 * step}};
    d.tensors["reward_std"] = torch::tensor({1.5, static_cast<double>(step)}, torch::kDouble);
    return d;
  }

  fs::path dir;
  config::Config config;
};

void flip_byte(const fs::path& file, std::streamoff at) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(at);
  const char c = static_cast<char>(f.get());
  f.seekp(at);
  f.put(static_cast<char>(c ^ 0x20));
}

TEST_F(Checkpoints, RoundTripIsBitExact) {
  torch::manual_seed(12);
  HydraNet net(config.model);
  auto opt = make_adamw(*net);
  train(*net, *opt, 0, 3);
  const auto file = dir / "a.ckpt";
  save_checkpoint(file, data_at(3), *net, opt.get());
  const auto draws_after_save = torch::rand({8});

  torch::manual_seed(999);  // a different RNG state and different weights
  HydraNet other(config.model);
  other->init_weights(77);
  auto other_opt = make_adamw(*other);
  train(*other, *other_opt, 0, 1);
  const auto data = load_checkpoint(file, other.get(), other_opt.get());

  EXPECT_TRUE(torch::equal(torch::rand({8}), draws_after_save));  // RNG restored
  const auto a = net->named_parameters(), b = other->named_parameters();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i].value(), b[i].value())) << a[i].key();
  // Optimizer moments and step counts, parameter by parameter.
  const auto params = net->parameters(), other_params = other->parameters();
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto& sa = static_cast<torch::optim::AdamWParamState&>(*opt->state().at(params[i].unsafeGetTensorImpl()));
    const auto& sb =
        static_cast<torch::optim::AdamWParamState&>(*other_opt->state().at(other_params[i].unsafeGetTensorImpl()));
    EXPECT_EQ(sa.step(), sb.step());
    EXPECT_TRUE(torch::equal(sa.exp_avg(), sb.exp_avg()));
    EXPECT_TRUE(torch::equal(sa.exp_avg_sq(), sb.exp_avg_sq()));
  }
  EXPECT_EQ(data.step, 3);
  EXPECT_EQ(data.kind, "hydra_net");
  EXPECT_EQ(data.config, config::to_json(config));
  EXPECT_EQ(data.metrics["loss"], 3.5);
  EXPECT_EQ(data.extra["games"], 120);
  EXPECT_EQ(WarmupCosine::from_json(data.scheduler).warmup, 1);
  EXPECT_TRUE(torch::equal(data.tensors.at("reward_std"), torch::tensor({1.5, 3.0}, torch::kDouble)));
}

TEST_F(Checkpoints, FlippedByteTruncationAndMissingSidecarAreRefused) {
  HydraNet net(config.model);
  const auto file = dir / "a.ckpt";
  save_checkpoint(file, data_at(1), *net);
  EXPECT_NO_THROW(verify_checkpoint(file));
  const auto size = static_cast<std::streamoff>(fs::file_size(file));

  flip_byte(file, size / 2);
  try {
    load_checkpoint(file, net.get());
    ADD_FAILURE() << "a flipped byte was not detected";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("SHA-256 mismatch"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  flip_byte(file, size / 2);  // restored
  EXPECT_NO_THROW(verify_checkpoint(file));

  fs::resize_file(file, static_cast<std::uintmax_t>(size - 100));
  EXPECT_THROW(verify_checkpoint(file), Error);
  save_checkpoint(file, data_at(1), *net);
  fs::remove(file.string() + ".sha256");
  EXPECT_THROW(verify_checkpoint(file), Error);
}

TEST_F(Checkpoints, ArchitectureMismatchIsAClearError) {
  HydraNet net(config.model);
  save_checkpoint(dir / "a.ckpt", data_at(1), *net);
  auto wider = config.model;
  wider.channels = 64;
  HydraNet other(wider);
  try {
    load_checkpoint(dir / "a.ckpt", other.get());
    ADD_FAILURE() << "loaded a 32-channel checkpoint into a 64-channel network";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("model tensor 'stem.weight' has shape [32, 85, 3]"), std::string::npos)
        << e.what();
  }
}

// A checkpoint written when the value head read the pooled latent alone (Linear(C, hidden))
// loads with the score-context columns at zero: the same value as before, whatever the context.
// Its optimizer state has the old shape, so resuming from it is refused with the way forward.
TEST_F(Checkpoints, ValueHeadOfTheEarlierLayoutLoadsWithZeroContextColumns) {
  const int c = config.model.channels;
  HydraNet old_net(config.model);
  old_net->value = old_net->replace_module("value", MlpHead(c, config.model.value_hidden, 1));
  old_net->init_weights(4);
  auto opt = make_adamw(*old_net, AdamWSettings{});
  save_checkpoint(dir / "old.ckpt", data_at(1), *old_net, opt.get());

  HydraNet net(config.model);
  load_checkpoint(dir / "old.ckpt", net.get(), nullptr, {false});
  const auto w = net->value->fc1->weight;
  ASSERT_EQ(w.size(1), c + kScoreContext);
  EXPECT_TRUE(torch::equal(w.narrow(1, 0, c), old_net->value->fc1->weight));
  EXPECT_EQ(w.narrow(1, c, kScoreContext).abs().max().item<float>(), 0.0f);
  // The upgraded network's value is the old head on the pooled latent, for any score context.
  torch::NoGradGuard no_grad;
  torch::manual_seed(8);
  const auto batch = testing::random_batch(3);
  const auto v1 = net->forward(batch.obs, batch.ctx).value;
  const auto v2 = net->forward(batch.obs, torch::zeros_like(batch.ctx)).value;
  auto x = net->stem(batch.obs);
  for (const auto& block : *net->blocks) x = block->as<SEResBlockImpl>()->forward(x);
  const auto pooled = torch::mish(net->trunk_norm(x)).mean(-1);
  EXPECT_TRUE(torch::allclose(v1, old_net->value->forward(pooled), 1e-5, 1e-6));
  EXPECT_TRUE(torch::equal(v1, v2));

  auto new_opt = make_adamw(*net, AdamWSettings{});
  try {
    load_checkpoint(dir / "old.ckpt", net.get(), new_opt.get(), {false});
    ADD_FAILURE() << "resumed an optimizer whose moments have the old value-head shape";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("start a new run from it"), std::string::npos) << e.what();
  }
}

// A network trained on another observation layout is refused, naming both versions; a checkpoint
// written before the version was recorded reads as version 1.
TEST_F(Checkpoints, AnotherEncoderVersionIsRefusedNamingBoth) {
  const auto write = [&](const fs::path& file, std::optional<std::int64_t> version) {
    torch::serialize::OutputArchive archive;
    archive.write("format_version", c10::IValue(kCheckpointFormat));
    if (version) archive.write("encoder_version", c10::IValue(*version));
    archive.write("kind", c10::IValue(std::string("hydra_net")));
    std::ostringstream out;
    archive.save_to(out);
    const std::string bytes = std::move(out).str();
    write_file_atomic(file, bytes);
    write_file_atomic(file.string() + ".sha256", game::to_hex(game::sha256(bytes)) + "  " + file.filename().string() + "\n");
  };
  write(dir / "v2.ckpt", encoder::kVersion + 1);
  try {
    load_checkpoint(dir / "v2.ckpt", nullptr, nullptr, {false});
    ADD_FAILURE() << "loaded a checkpoint of another encoder version";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("v2.ckpt"), std::string::npos) << m;
    EXPECT_NE(m.find("observation layout (encoder) version " + std::to_string(encoder::kVersion + 1) +
                     ", this build encodes version " + std::to_string(encoder::kVersion)),
              std::string::npos)
        << m;
  }
  // Without the field: version 1. This stub lacks the later fields, so it is refused either way;
  // the refusal names the version only when this build's version is not 1.
  write(dir / "old.ckpt", std::nullopt);
  try {
    load_checkpoint(dir / "old.ckpt", nullptr, nullptr, {false});
    ADD_FAILURE() << "a stub checkpoint loaded";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("encoder) version 1,") != std::string::npos, encoder::kVersion != 1) << e.what();
  }
  // What save_checkpoint writes reads back.
  HydraNet net(config.model);
  save_checkpoint(dir / "now.ckpt", data_at(1), *net);
  EXPECT_NO_THROW(load_checkpoint(dir / "now.ckpt", net.get()));
}

TEST_F(Checkpoints, PointersRetentionAndFallback) {
  HydraNet net(config.model);
  CheckpointDir store(dir, 2);
  EXPECT_FALSE(store.load_latest(net.get()).has_value());
  for (std::int64_t step = 1; step <= 4; ++step) store.save(data_at(step), *net, nullptr, /*is_best=*/step == 1);
  // Kept: the two newest and the best.
  const auto files = store.list();
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].filename(), "step-000000000001.ckpt");
  EXPECT_EQ(files[1].filename(), "step-000000000003.ckpt");
  EXPECT_EQ(files[2].filename(), "step-000000000004.ckpt");
  EXPECT_FALSE(fs::exists(dir / "step-000000000002.ckpt.sha256"));
  EXPECT_EQ(store.pointer("latest")->filename(), "step-000000000004.ckpt");
  EXPECT_EQ(store.pointer("best")->filename(), "step-000000000001.ckpt");

  fs::path from;
  EXPECT_EQ(store.load_latest(net.get(), nullptr, {}, &from)->step, 4);
  // The newest is damaged: loading falls back to the previous good one.
  flip_byte(files[2], 200);
  EXPECT_EQ(store.load_latest(net.get(), nullptr, {}, &from)->step, 3);
  EXPECT_EQ(from, files[1]);
  fs::resize_file(files[1], 64);
  EXPECT_EQ(store.load_latest(net.get(), nullptr, {}, &from)->step, 1);
  flip_byte(files[0], 300);
  try {
    store.load_latest(net.get());
    ADD_FAILURE() << "no checkpoint is good, yet one loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no usable checkpoint"), std::string::npos) << e.what();
  }
}

// What a save killed midway leaves (scripts/kill_train.sh kills at each point for real): the
// sidecar is written before its checkpoint, so a checkpoint under its name always has one; an
// orphan sidecar or temporary file is removed by the owner at its next start, and a step saved
// again (a resume from an older checkpoint) replaces both files.
TEST_F(Checkpoints, LeftoversOfAKilledSaveAreRemovedAndAStepCanBeSavedAgain) {
  HydraNet net(config.model);
  CheckpointDir store(dir, 0);
  store.save(data_at(2), *net);
  store.save(data_at(4), *net);
  // Killed between the sidecar and the checkpoint of step 6, and mid-write of another file.
  fs::copy_file(dir / "step-000000000004.ckpt.sha256", dir / "step-000000000006.ckpt.sha256");
  std::ofstream(dir / ".step-000000000006.ckpt.tmp-99999") << "partial";
  std::ofstream(dir / ".latest.tmp-99999") << "step-";
  EXPECT_EQ(store.list().size(), 2u);  // the orphan sidecar is no checkpoint
  remove_stale_temp_files(dir);
  remove_orphan_sidecars(dir);
  EXPECT_FALSE(fs::exists(dir / "step-000000000006.ckpt.sha256"));
  EXPECT_FALSE(fs::exists(dir / ".step-000000000006.ckpt.tmp-99999"));
  EXPECT_FALSE(fs::exists(dir / ".latest.tmp-99999"));
  EXPECT_TRUE(fs::exists(dir / "step-000000000004.ckpt.sha256"));
  // Step 4 again, with other content: the new file and its own sidecar verify.
  CheckpointData again = data_at(4);
  again.extra = {{"games", 12345}};
  store.save(again, *net);
  EXPECT_NO_THROW(verify_checkpoint(dir / "step-000000000004.ckpt"));
  EXPECT_EQ(store.load_latest(net.get())->extra["games"], 12345);
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 5);  // two checkpoints, two sidecars, latest
}

TEST_F(Checkpoints, NoUsableCheckpointSaysHowToGoOn) {
  HydraNet net(config.model);
  CheckpointDir store(dir, 0);
  store.save(data_at(1), *net);
  fs::remove(dir / "step-000000000001.ckpt.sha256");  // as an older version's killed save left it
  try {
    store.load_latest(net.get());
    ADD_FAILURE() << "a checkpoint without a sidecar loaded";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("no SHA-256 sidecar"), std::string::npos) << m;
    EXPECT_NE(m.find("start without --resume"), std::string::npos) << m;
  }
}

TEST_F(Checkpoints, ResumedRunContinuesWithIdenticalLosses) {
  torch::manual_seed(13);
  HydraNet net(config.model);
  auto opt = make_adamw(*net);
  train(*net, *opt, 0, 3);
  CheckpointDir store(dir, 3);
  store.save(data_at(3), *net, opt.get());
  const auto uninterrupted = train(*net, *opt, 3, 4);

  torch::manual_seed(4242);
  HydraNet fresh(config.model);
  auto fresh_opt = make_adamw(*fresh);
  const auto data = store.load_latest(fresh.get(), fresh_opt.get());
  ASSERT_TRUE(data.has_value());
  const auto resumed = train(*fresh, *fresh_opt, data->step, 4);
  ASSERT_EQ(resumed.size(), uninterrupted.size());
  for (std::size_t i = 0; i < resumed.size(); ++i) {
    std::printf("step %zu: uninterrupted %.17g resumed %.17g\n", 3 + i, uninterrupted[i], resumed[i]);
    EXPECT_EQ(resumed[i], uninterrupted[i]);
  }
}

TEST_F(Checkpoints, ExportWritesTheStateDict) {
  HydraNet net(config.model);
  net->init_weights(21);
  CheckpointDir store(dir / "run", 0);
  store.save(data_at(5), *net);
  const auto result = export_weights(dir / "run", dir / "weights.pt");
  EXPECT_EQ(result.kind, "hydra_net");
  EXPECT_EQ(result.step, 5);
  EXPECT_EQ(result.parameters, count_parameters(*net));
  // Read back with torch's own unpickler: the same names and bits.
  std::ifstream in(dir / "weights.pt", std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto dict = torch::pickle_load(bytes).toGenericDict();
  const auto params = net->named_parameters();
  ASSERT_EQ(dict.size(), params.size() + 1);  // the weights and the encoder version
  for (const auto& p : params) EXPECT_TRUE(torch::equal(dict.at(p.key()).toTensor(), p.value())) << p.key();
  EXPECT_TRUE(dict.contains("blocks.1.se_fc2.bias"));
  EXPECT_EQ(dict.at(std::string(kExportEncoderVersion)).toTensor().item<std::int64_t>(), encoder::kVersion);
}


// hydra merge: the mean of two networks, and with a base the base moved scale times along the mean
// update, every float tensor by hand; another architecture or kind, and --scale without --base, are
// errors naming the file.
TEST_F(Checkpoints, MergeAveragesAndExtrapolatesEveryWeight) {
  HydraNet a(config.model), b(config.model), base(config.model);
  a->init_weights(1);
  b->init_weights(2);
  base->init_weights(3);
  save_checkpoint(dir / "a.ckpt", data_at(4), *a);
  save_checkpoint(dir / "b.ckpt", data_at(5), *b);
  save_checkpoint(dir / "base.ckpt", data_at(0), *base);
  const auto merged = [&](const fs::path& file) {
    HydraNet m(config.model);
    const CheckpointData d = load_checkpoint(file, m.get(), nullptr, {false});
    EXPECT_EQ(d.step, 0);
    EXPECT_EQ(d.extra["command"], "merge");
    return m;
  };
  const auto r = merge_weights({.inputs = {dir / "a.ckpt", dir / "b.ckpt"}, .base = {}, .scale = 1.0, .out = dir / "mean.ckpt"});
  EXPECT_EQ(r.kind, "hydra_net");
  EXPECT_EQ(r.parameters, count_parameters(*a));
  const HydraNet mean = merged(dir / "mean.ckpt");
  merge_weights({.inputs = {dir / "a.ckpt", dir / "b.ckpt"}, .base = dir / "base.ckpt", .scale = 2.0, .out = dir / "x2.ckpt"});
  const HydraNet x2 = merged(dir / "x2.ckpt");
  const auto pa = a->named_parameters(), pb = b->named_parameters(), p0 = base->named_parameters();
  const auto pm = mean->named_parameters(), px = x2->named_parameters();
  for (const auto& p : pa) {
    const auto& k = p.key();
    const auto want_mean = (pa[k].to(torch::kDouble) + pb[k].to(torch::kDouble)) / 2;
    EXPECT_TRUE(torch::allclose(pm[k].to(torch::kDouble), want_mean, 0, 1e-7)) << k;
    const auto want_x2 = p0[k].to(torch::kDouble) + 2 * (want_mean - p0[k].to(torch::kDouble));
    EXPECT_TRUE(torch::allclose(px[k].to(torch::kDouble), want_x2, 0, 1e-6)) << k;
  }
  // Scale 1 with a base is the mean again.
  merge_weights({.inputs = {dir / "a.ckpt", dir / "b.ckpt"}, .base = dir / "base.ckpt", .scale = 1.0, .out = dir / "x1.ckpt"});
  const HydraNet x1 = merged(dir / "x1.ckpt");
  for (const auto& p : x1->named_parameters())
    EXPECT_TRUE(torch::allclose(p.value(), pm[p.key()], 0, 1e-6)) << p.key();

  const auto error_of = [](const MergeOptions& o) {
    try {
      merge_weights(o);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  config::Config other = config;
  other.model = testing::tiny_config(1);
  HydraNet c(other.model);
  CheckpointData dc = data_at(1);
  dc.config = config::to_json(other);
  save_checkpoint(dir / "c.ckpt", dc, *c);
  const std::string arch = error_of({.inputs = {dir / "a.ckpt", dir / "c.ckpt"}, .base = {}, .scale = 1.0, .out = dir / "bad.ckpt"});
  EXPECT_NE(arch.find((dir / "c.ckpt").string()), std::string::npos) << arch;
  EXPECT_NE(arch.find("another architecture"), std::string::npos) << arch;
  EXPECT_NE(error_of({.inputs = {dir / "a.ckpt"}, .base = {}, .scale = 2.0, .out = dir / "bad.ckpt"}).find("needs --base"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "bad.ckpt"));
}

}  // namespace
}  // namespace hydra::model
