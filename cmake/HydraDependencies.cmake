# All third-party code comes from the system (Debian packages) or the pinned PyPI torch wheel
# (scripts/setup.sh installs both). Nothing is downloaded at build time.

find_package(Threads REQUIRED)
find_package(TBB REQUIRED)                 # libtbb-dev 2021.8
find_package(nlohmann_json 3.10 REQUIRED)  # nlohmann-json3-dev 3.11.2
find_package(CLI11 REQUIRED)               # libcli11-dev 2.1.2
find_package(fmt REQUIRED)                 # libfmt-dev 9.1
find_package(spdlog REQUIRED)              # libspdlog-dev 1.10 (external fmt 9)
find_package(ZLIB REQUIRED)
find_package(OpenSSL REQUIRED)             # SHA-256 for seeding and checkpoint sidecars
find_package(pugixml REQUIRED)             # libpugixml-dev 1.13: Tenhou mjlog XML
find_package(simdjson REQUIRED)            # libsimdjson-dev 3.0: bulk mjai reading
find_package(Protobuf 3.21 REQUIRED)       # libprotobuf-dev + protobuf-compiler: TensorBoard events
find_package(Boost 1.74 REQUIRED)          # libboost-dev (header-only): CRC-32C of event records
if(HYDRA_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(HYDRA_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()

if(HYDRA_WITH_TORCH)
  # LibTorch from the torch wheel: scripts/build.sh passes its CMake prefix
  # (python -c 'import torch; print(torch.utils.cmake_prefix_path)').
  # Naming the architectures skips Caffe2's GPU probe (a try_run that needs a GPU) and sets the
  # machine code of Hydra's own kernels (model.fused_norm): A100 (8.0), H100/H200 (9.0).
  if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    set(TORCH_CUDA_ARCH_LIST "8.0;9.0")
  endif()
  find_package(Torch REQUIRED)
  message(STATUS "Hydra: LibTorch ${Torch_VERSION} from ${Torch_DIR}")
  # The precompiled header target every torch library reuses (see hydra_add_library).
  # hydra_torch: what torch-using targets link. LibTorch bundles fmt 12 headers that shadow the
  # system fmt 9 in those targets; FMT_HEADER_ONLY keeps that fmt self-contained (its inline
  # namespace fmt::v12 never meets the system's fmt::v9 symbols).
  add_library(hydra_torch INTERFACE)
  target_link_libraries(hydra_torch INTERFACE torch)
  target_compile_definitions(hydra_torch INTERFACE FMT_HEADER_ONLY)
  add_library(hydra_torch_pch STATIC ${CMAKE_CURRENT_SOURCE_DIR}/cmake/torch_pch.cpp)
  target_link_libraries(hydra_torch_pch PUBLIC hydra_torch PRIVATE hydra_warnings)
  target_precompile_headers(hydra_torch_pch PUBLIC <torch/torch.h>)
endif()
