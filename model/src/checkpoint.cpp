#include "hydra/model/checkpoint.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <sstream>

#include <ATen/CPUGeneratorImpl.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>

#include "hydra/common/read_file.hpp"
#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/common/index.hpp"

namespace hydra::model {
namespace {

namespace fs = std::filesystem;
using TensorDict = c10::Dict<std::string, torch::Tensor>;

constexpr std::string_view kPrefix = "step-";
constexpr std::string_view kSuffix = ".ckpt";

fs::path sidecar_of(const fs::path& file) { return fs::path(file.string() + ".sha256"); }

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

[[noreturn]] void refuse(const fs::path& file, const std::string& why) {
  throw Error("checkpoint '" + file.string() + "': " + why);
}

// The generator states that make a resumed run draw the same numbers.
TensorDict rng_states() {
  TensorDict states;
  auto cpu = at::detail::getDefaultCPUGenerator();
  {
    std::lock_guard<std::mutex> lock(cpu.mutex());
    states.insert("cpu", cpu.get_state());
  }
  if (torch::cuda::is_available()) {
    for (int i = 0; i < static_cast<int>(torch::cuda::device_count()); ++i) {
      auto gen = at::globalContext().defaultGenerator(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i)));
      std::lock_guard<std::mutex> lock(gen.mutex());
      states.insert("cuda" + std::to_string(i), gen.get_state());
    }
  }
  return states;
}

void restore_rng(const c10::impl::GenericDict& states) {
  for (const auto& entry : states) {
    const auto& name = entry.key().toStringRef();
    const auto state = entry.value().toTensor().cpu();
    if (name == "cpu") {
      auto cpu = at::detail::getDefaultCPUGenerator();
      std::lock_guard<std::mutex> lock(cpu.mutex());
      cpu.set_state(state);
    } else if (name.starts_with("cuda") && torch::cuda::is_available()) {
      const int index = std::stoi(name.substr(4));
      if (index >= static_cast<int>(torch::cuda::device_count())) continue;  // resumed on a machine with fewer GPUs
      auto gen = at::globalContext().defaultGenerator(torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index)));
      std::lock_guard<std::mutex> lock(gen.mutex());
      gen.set_state(state);
    }
  }
}

TensorDict model_state(const torch::nn::Module& model) {
  TensorDict state;
  for (const auto& p : model.named_parameters()) state.insert(p.key(), p.value().detach());
  for (const auto& b : model.named_buffers()) state.insert(b.key(), b.value().detach());
  return state;
}

// Layout changes a checkpoint of an earlier layout is upgraded across: a weight matrix that
// gained input columns (appended after the old ones). The new columns are zero, so the upgraded
// network computes exactly what the saved one did.
struct WidenedInput {
  const char* tensor;
  std::int64_t added;
};
constexpr std::array kWidenedInputs{
    WidenedInput{"value.fc1.weight", encoder::kContextSize},  // the value head sees the score context
};

// Copies a saved state into the live tensors by name (keeping their identity, device and
// dtype, so optimizers holding them stay valid); names and shapes must match exactly, but for
// the upgrades above. Returns whether one was applied.
bool load_model_state(const fs::path& file, torch::nn::Module& model, const c10::impl::GenericDict& saved) {
  torch::NoGradGuard no_grad;
  std::vector<std::pair<std::string, torch::Tensor>> live;
  for (const auto& p : model.named_parameters()) live.emplace_back(p.key(), p.value());
  for (const auto& b : model.named_buffers()) live.emplace_back(b.key(), b.value());
  if (live.size() != saved.size())
    refuse(file, "holds " + std::to_string(saved.size()) + " model tensors, the model has " +
                     std::to_string(live.size()) + " (different architecture? compare the model config)");
  bool upgraded = false;
  for (auto& [name, tensor] : live) {
    const auto it = saved.find(name);
    if (it == saved.end()) refuse(file, "has no model tensor '" + name + "' (different architecture?)");
    const auto value = it->value().toTensor();
    const auto widened = std::find_if(kWidenedInputs.begin(), kWidenedInputs.end(), [&](const WidenedInput& w) {
      return name == w.tensor && value.dim() == 2 && tensor.dim() == 2 && value.size(0) == tensor.size(0) &&
             value.size(1) + w.added == tensor.size(1);
    });
    if (widened != kWidenedInputs.end()) {
      tensor.zero_();
      tensor.narrow(1, 0, value.size(1)).copy_(value);
      upgraded = true;
      continue;
    }
    if (value.sizes() != tensor.sizes()) {
      std::ostringstream msg;
      msg << "model tensor '" << name << "' has shape " << value.sizes() << ", the model expects " << tensor.sizes();
      refuse(file, msg.str());
    }
    tensor.copy_(value);
  }
  return upgraded;
}

nlohmann::ordered_json parse_json(const fs::path& file, const std::string& field, const std::string& text) {
  try {
    return json::parse_ordered(text);
  } catch (const json::ParseError& e) {
    refuse(file, "field '" + field + "' is not valid JSON: " + e.what());
  }
}

// The sidecar's digest (first word of its first line, sha256sum format).
std::string expected_digest(const fs::path& file) {
  const auto side = sidecar_of(file);
  if (!fs::exists(side)) refuse(file, "no SHA-256 sidecar '" + side.filename().string() + "' (incomplete write?)");
  const auto text = read_file(side);
  const auto digest = text.substr(0, text.find_first_of(" \n"));
  if (digest.size() != 64) refuse(file, "malformed SHA-256 sidecar '" + side.string() + "'");
  return digest;
}

void verify_bytes(const fs::path& file, const std::string& bytes) {
  const auto expected = expected_digest(file);
  const auto actual = game::to_hex(game::sha256(bytes));
  if (actual != expected)
    refuse(file, "SHA-256 mismatch (corrupt or truncated file: " + std::to_string(bytes.size()) +
                     " bytes hash to " + actual.substr(0, 12) + "..., the sidecar says " + expected.substr(0, 12) + "...)");
}

std::optional<std::int64_t> step_of(const fs::path& file) {
  const auto name = file.filename().string();
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return std::nullopt;
  const auto digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  if (digits.empty() || digits.size() > 18 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoll(digits);
}

}  // namespace

void save_checkpoint(const fs::path& file, const CheckpointData& data, const torch::nn::Module& model,
                     const torch::optim::Optimizer* optimizer) {
  torch::serialize::OutputArchive archive;
  archive.write("format_version", c10::IValue(kCheckpointFormat));
  archive.write("kind", c10::IValue(data.kind));
  archive.write("encoder_version", c10::IValue(std::int64_t{encoder::kVersion}));
  archive.write("step", c10::IValue(data.step));
  archive.write("config", c10::IValue(data.config.dump()));
  archive.write("metrics", c10::IValue(data.metrics.dump()));
  archive.write("scheduler", c10::IValue(data.scheduler.dump()));
  archive.write("extra", c10::IValue(data.extra.dump()));
  archive.write("model", c10::IValue(model_state(model)));
  TensorDict tensors;
  for (const auto& [name, tensor] : data.tensors) tensors.insert(name, tensor.detach());
  archive.write("tensors", c10::IValue(tensors));
  archive.write("rng", c10::IValue(rng_states()));
  if (optimizer) {
    torch::serialize::OutputArchive opt;
    optimizer->save(opt);
    archive.write("optimizer", opt);
  }
  std::ostringstream out;
  archive.save_to(out);
  const std::string bytes = std::move(out).str();
  // The sidecar goes first, so a checkpoint under its final name always has one: a crash between
  // the two renames leaves a sidecar without a file, which nothing reads (and a new start
  // removes), instead of a file that can neither be verified nor be written over. An older
  // checkpoint of the same name goes first of all, file before sidecar, for the same reason.
  std::error_code ec;
  if (fs::remove(file, ec)) crash_point("checkpoint:old-removed");
  fs::remove(sidecar_of(file), ec);
  write_file_atomic(sidecar_of(file), game::to_hex(game::sha256(bytes)) + "  " + file.filename().string() + "\n");
  crash_point("checkpoint:sidecar");
  write_file_atomic(file, bytes);
}

void verify_checkpoint(const fs::path& file) { verify_bytes(file, read_file(file)); }

CheckpointData load_checkpoint(const fs::path& file, torch::nn::Module* model, torch::optim::Optimizer* optimizer,
                               const LoadOptions& options) {
  const auto bytes = read_file(file);
  verify_bytes(file, bytes);
  torch::Device device = torch::kCPU;
  if (model && !model->parameters().empty()) device = model->parameters().front().device();
  CheckpointData data;
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(bytes.data(), bytes.size(), device);
    c10::IValue v;
    archive.read("format_version", v);
    if (v.toInt() != kCheckpointFormat)
      refuse(file, "format version " + std::to_string(v.toInt()) + ", this build reads version " +
                       std::to_string(kCheckpointFormat));
    // Checkpoints written before the field existed hold version 1, the first layout.
    const std::int64_t version = archive.try_read("encoder_version", v) ? v.toInt() : 1;
    if (version != encoder::kVersion)
      refuse(file, "was trained on observation layout (encoder) version " + std::to_string(version) +
                       ", this build encodes version " + std::to_string(encoder::kVersion));
    archive.read("kind", v);
    data.kind = v.toStringRef();
    archive.read("step", v);
    data.step = v.toInt();
    for (auto [field, target] : {std::pair{"config", &data.config}, std::pair{"metrics", &data.metrics},
                                 std::pair{"scheduler", &data.scheduler}, std::pair{"extra", &data.extra}}) {
      archive.read(field, v);
      *target = parse_json(file, field, v.toStringRef());
    }
    archive.read("tensors", v);
    for (const auto& entry : v.toGenericDict()) data.tensors[entry.key().toStringRef()] = entry.value().toTensor();
    bool upgraded = false;
    if (model) {
      archive.read("model", v);
      upgraded = load_model_state(file, *model, v.toGenericDict());
    }
    if (optimizer) {
      // Optimizer moments of an upgraded tensor have the old shape: such a run cannot resume.
      if (upgraded)
        refuse(file, "was written before the value head saw the score context; its weights load (the new "
                     "inputs start at zero), but its optimizer state does not: start a new run from it "
                     "(ppo.init or pretrain.init) instead of resuming");
      torch::serialize::InputArchive opt;
      if (!archive.try_read("optimizer", opt)) refuse(file, "holds no optimizer state");
      optimizer->load(opt);
    }
    if (options.restore_rng) {
      archive.read("rng", v);
      restore_rng(v.toGenericDict());
    }
  } catch (const Error&) {
    throw;  // already names the file
  } catch (const c10::Error& e) {
    refuse(file, "unreadable: " + first_line(e.what()));
  } catch (const std::runtime_error& e) {
    // A field missing from the archive is torch::jit::ObjectAttributeError, not a c10::Error.
    refuse(file, "unreadable: " + first_line(e.what()));
  }
  return data;
}

CheckpointDir::CheckpointDir(fs::path dir, int keep) : dir_(std::move(dir)), keep_(keep) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw Error("cannot create checkpoint directory '" + dir_.string() + "': " + ec.message());
}

fs::path CheckpointDir::save(const CheckpointData& data, const torch::nn::Module& model,
                             const torch::optim::Optimizer* optimizer, bool is_best) {
  auto digits = std::to_string(data.step);
  digits.insert(0, digits.size() < 12 ? 12 - digits.size() : 0, '0');
  const auto file = dir_ / (std::string(kPrefix) + digits + std::string(kSuffix));
  save_checkpoint(file, data, model, optimizer);
  crash_point("checkpoint:file");
  write_file_atomic(dir_ / "latest", file.filename().string() + "\n");
  crash_point("checkpoint:latest");
  if (is_best) write_file_atomic(dir_ / "best", file.filename().string() + "\n");
  prune();
  return file;
}

std::vector<fs::path> CheckpointDir::list() const {
  std::vector<std::pair<std::int64_t, fs::path>> found;
  for (const auto& entry : fs::directory_iterator(dir_))
    if (const auto step = step_of(entry.path()); step && entry.is_regular_file()) found.emplace_back(*step, entry.path());
  std::sort(found.begin(), found.end());
  std::vector<fs::path> files;
  for (auto& f : found) files.push_back(std::move(f.second));
  return files;
}

std::optional<fs::path> CheckpointDir::pointer(std::string_view name) const {
  const auto file = dir_ / name;
  if (!fs::exists(file)) return std::nullopt;
  auto text = read_file(file);
  text = text.substr(0, text.find('\n'));
  if (text.empty() || text.find('/') != std::string::npos || !step_of(text))
    throw Error("checkpoint pointer '" + file.string() + "' does not name a checkpoint file");
  return dir_ / text;
}

void CheckpointDir::prune() const {
  if (keep_ <= 0) return;
  const auto files = list();
  if (files.size() <= ix(keep_)) return;
  std::optional<fs::path> best;
  try {
    best = pointer("best");
  } catch (const Error&) {
    // A damaged `best` pointer protects nothing; pruning by age is still right.
  }
  for (std::size_t i = 0; i + ix(keep_) < files.size(); ++i) {
    if (best && files[i] == *best) continue;
    fs::remove(files[i]);
    crash_point("checkpoint:pruned-file");
    fs::remove(sidecar_of(files[i]));
  }
}

std::optional<CheckpointData> CheckpointDir::load_latest(torch::nn::Module* model, torch::optim::Optimizer* optimizer,
                                                         const LoadOptions& options, fs::path* loaded_from) const {
  auto candidates = list();
  std::reverse(candidates.begin(), candidates.end());
  std::string refusals;
  try {
    if (const auto latest = pointer("latest"); latest && fs::exists(*latest)) {
      std::erase(candidates, *latest);
      candidates.insert(candidates.begin(), *latest);
    }
  } catch (const Error& e) {
    refusals += "\n  " + std::string(e.what());
  }
  if (candidates.empty()) return std::nullopt;
  for (const auto& file : candidates) {
    try {
      auto data = load_checkpoint(file, model, optimizer, options);
      if (loaded_from) *loaded_from = file;
      if (!refusals.empty()) log::warn("loaded the previous good checkpoint '{}'", file.string());
      return data;
    } catch (const Error& e) {
      log::warn("refused {}", e.what());
      refusals += "\n  " + std::string(e.what());
    }
  }
  throw Error("no usable checkpoint in '" + dir_.string() + "':" + refusals +
              "\n  to start over, move these files out of '" + dir_.string() +
              "' (or choose another run directory) and start without --resume");
}

void save_prefixed(const torch::nn::Module& net, const std::string& prefix, CheckpointData& out) {
  for (const auto& p : net.named_parameters()) out.tensors[prefix + p.key()] = p.value().detach().to(torch::kCPU);
  for (const auto& b : net.named_buffers()) out.tensors[prefix + b.key()] = b.value().detach().to(torch::kCPU);
}

void load_prefixed(torch::nn::Module& net, const std::string& prefix, const CheckpointData& in, const fs::path& file) {
  torch::NoGradGuard no_grad;
  auto copy_in = [&](const std::string& name, torch::Tensor& dst) {
    const auto it = in.tensors.find(prefix + name);
    if (it == in.tensors.end()) throw Error(file.string() + ": checkpoint lacks tensor '" + prefix + name + "'");
    if (!it->second.sizes().equals(dst.sizes()))
      throw Error(file.string() + ": tensor '" + prefix + name + "' has the wrong shape");
    dst.copy_(it->second);
  };
  for (auto& p : net.named_parameters()) copy_in(p.key(), p.value());
  for (auto& b : net.named_buffers()) copy_in(b.key(), b.value());
}

void save_tensor_dict(const fs::path& file, const std::vector<std::pair<std::string, torch::Tensor>>& tensors) {
  TensorDict dict;
  for (const auto& [name, tensor] : tensors) dict.insert(name, tensor.detach().cpu().contiguous());
  // torch::pickle_save would tag the dict with its TorchScript type through the global
  // torch.jit._pickle.restore_type_tag, which torch.load(weights_only=True) refuses. This is
  // pickle_save without the tags: the same zip layout torch.save writes (data.pkl + one record
  // per tensor storage).
  std::vector<char> pickle;
  torch::jit::Pickler pickler([&](const char* buf, std::size_t n) { pickle.insert(pickle.end(), buf, buf + n); },
                              nullptr, nullptr, nullptr, nullptr, /*tag_aggregates=*/false);
  pickler.protocol();
  pickler.pushIValue(c10::IValue(dict));
  pickler.stop();
  std::string bytes;
  {
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, std::size_t n) {
      bytes.append(static_cast<const char*>(data), n);
      return n;
    });
    torch::jit::writeArchiveAndTensors("data", pickle.data(), pickle.size(), pickler.tensorData(), writer);
    writer.writeEndOfFile();
  }
  write_file_atomic(file, bytes);
}

config::Config stored_config(const std::filesystem::path& file, const CheckpointData& data) {
  try {
    return config::parse(data.config.dump(), "config stored in " + file.string());
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (checkpoint written by another Hydra version?)");
  }
}

}  // namespace hydra::model
