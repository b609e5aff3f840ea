# Warnings, sanitizers and the compiler cache, applied through one interface target
# (hydra_warnings) that every Hydra target links privately.

add_library(hydra_warnings INTERFACE)
target_compile_options(hydra_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
if(HYDRA_WERROR)
  target_compile_options(hydra_warnings INTERFACE -Werror)
endif()

if(HYDRA_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(HYDRA_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT HYDRA_SANITIZE STREQUAL "")
  message(FATAL_ERROR "HYDRA_SANITIZE must be empty, 'address' or 'thread', not '${HYDRA_SANITIZE}'")
endif()
# Sanitizer builds (RelWithDebInfo, scripts/build.sh) with line tables only (-g1): the
# sanitizers' reports name file and line from those, and 12 translation units of the ASan tree
# took 22% less CPU than at -O2 -g, 45% less at -O1 -g1 (docs/BUILDING.md "Keeping builds fast").
# ASan's stage compiles the whole tree, so it builds at -O1; TSan's builds only the threaded test
# programs, whose run (5 to 15 times slower under TSan) outweighs their build: -O2. For a
# debugger: -DHYDRA_SANITIZE_OPT="-O1 -g".
if(NOT HYDRA_SANITIZE STREQUAL "")
  if(DEFINED HYDRA_SANITIZE_OPT)
    set(hydra_sanitize_opt "${HYDRA_SANITIZE_OPT}")
  elseif(HYDRA_SANITIZE STREQUAL "address")
    set(hydra_sanitize_opt "-O1 -g1")
  else()
    set(hydra_sanitize_opt "-O2 -g1")
  endif()
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "${hydra_sanitize_opt} -DNDEBUG")
endif()

# libFuzzer coverage instrumentation on every target, so the fuzzer sees inside the libraries;
# the harnesses link the fuzzer itself (tests/fuzz).
if(HYDRA_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "HYDRA_FUZZ needs clang (scripts/fuzz.sh sets it)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# ccache keeps rebuilds of fresh clones cheap; the cache lives outside the repository
# (scripts/build.sh points CCACHE_DIR at ~/.cache/hydra/ccache).
find_program(HYDRA_CCACHE ccache)
if(HYDRA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${HYDRA_CCACHE})
endif()

# hydra_add_library(NAME SOURCES... [DEPS ...] [TORCH]): one library per folder, public headers
# under <folder>/include/hydra/<folder>/.
function(hydra_add_library name)
  cmake_parse_arguments(ARG "TORCH" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE hydra_warnings)
  if(ARG_TORCH)
    target_link_libraries(${name} PUBLIC hydra_torch)
    # One precompiled torch header shared by all torch-heavy targets: torch/torch.h costs
    # ~15 s per translation unit on this class of machine without it.
    if(TARGET hydra_torch_pch)
      target_precompile_headers(${name} REUSE_FROM hydra_torch_pch)
    endif()
  endif()
endfunction()
