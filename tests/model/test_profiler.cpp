// model::profile_device: the events it sums and the kinds it gives kernel names.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "hydra/model/profiler.hpp"

namespace hydra::model {
namespace {

TEST(Profiler, CountsTheOperatorsItRan) {
  const auto a = torch::ones({64, 64}), b = torch::ones({64, 64});
  const auto trace = std::filesystem::path(::testing::TempDir()) / "hydra_profile_trace.json";
  std::filesystem::remove(trace);
  const auto p = profile_device(
      [&] {
        for (int i = 0; i < 7; ++i) (void)torch::mm(a, b);
      },
      torch::kCPU, trace.string());
  EXPECT_EQ(p.device, "cpu");
  EXPECT_GT(p.wall_seconds, 0.0);
  EXPECT_EQ(p.busy_seconds, 0.0);  // no device intervals on the CPU
  const auto mm = std::find_if(p.top.begin(), p.top.end(), [](const ProfiledName& n) { return n.name == "aten::mm"; });
  ASSERT_NE(mm, p.top.end());
  EXPECT_EQ(mm->calls, 7);
  EXPECT_GT(mm->seconds, 0.0);
  EXPECT_LE(mm->seconds, p.wall_seconds);
  // The Chrome trace Kineto writes: a JSON object with the same operators in it.
  std::ifstream in(trace);
  const auto j = nlohmann::json::parse(in);
  int calls = 0;
  for (const auto& e : j.at("traceEvents"))
    if (e.contains("name") && e["name"] == "aten::mm") ++calls;
  EXPECT_EQ(calls, 7);
  const auto summary = p.to_json();
  EXPECT_EQ(summary.at("events").get<std::int64_t>(), p.events);
}

TEST(Profiler, KernelKindsFromRealNames) {
  // Names as CUPTI reports them for PyTorch's and cuDNN's kernels.
  EXPECT_EQ(kernel_kind("void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<c10::BFloat16>(long, float, "
                        "c10::BFloat16 const*, float*, float*)"),
            "GroupNorm");
  EXPECT_EQ(kernel_kind("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64"),
            "convolution/GEMM");
  EXPECT_EQ(kernel_kind("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<FusedAdamMathFunctor>"),
            "optimizer");
  EXPECT_EQ(kernel_kind("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(...)>"),
            "copy/cast");
  EXPECT_EQ(kernel_kind("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, MeanOps>>"), "reduction");
  EXPECT_EQ(kernel_kind("void at::native::vectorized_elementwise_kernel<4, at::native::mish_kernel_cuda>"),
            "elementwise");
  EXPECT_EQ(kernel_kind("Memcpy HtoD (Pageable -> Device)"), "memcpy/memset");
  EXPECT_EQ(kernel_kind("some_other_kernel"), "other");
}

}  // namespace
}  // namespace hydra::model
