#pragma once

namespace hydra::build {
const char* version();
const char* build_type();
const char* compiler();
const char* sanitizers();    // "" when built without sanitizers
const char* git_revision();  // `git describe --always --dirty` at build time, or "unknown"
}  // namespace hydra::build
