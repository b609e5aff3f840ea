#pragma once

// The one home of crash-safe file writes (run directories, checkpoints, logs written whole) and
// of the temporary files they leave when a process dies mid-write.

#include <filesystem>
#include <string_view>

namespace hydra {

// The temporary file that stands in for `file` while it is written: `.NAME.tmp-PID` in the same
// folder (so the rename stays within one file system, and `ls` hides it).
std::filesystem::path temp_path_for(const std::filesystem::path& file);

// Writes `bytes` so that `file` holds either its old content or all of `bytes`, never a prefix:
// the temporary file, fsync, rename over `file`, fsync of the folder. On any failure (a full
// disk, no permission) the temporary file is removed before hydra::Error, naming the file, is
// thrown, so a failed write leaves no partial file taking space. `Durability::rename_only` skips
// the fsyncs for bulk output a crash may lose whole (generated game logs), never for run state.
enum class Durability { fsync, rename_only };
void write_file_atomic(const std::filesystem::path& file, std::string_view bytes,
                       Durability durability = Durability::fsync);

// Flushes `path` (a file, or a folder's entries) to disk; best effort.
void fsync_path(const std::filesystem::path& path);

// Removes the temporary files a killed writer left in `dir` (not recursive): `.NAME.tmp-PID`,
// and `NAME.tmpPID` / `metrics.jsonl.tmp` of earlier versions. A run directory belongs to one
// process at a time, so whatever temporary file is there when a run starts or resumes is stale.
// Logs each removal; returns how many were removed. A missing `dir` is no error.
int remove_stale_temp_files(const std::filesystem::path& dir);

// Removes each `NAME.sha256` in `dir` whose NAME is missing: what a checkpoint save killed
// between writing the sidecar and the file (or a prune between removing the two) leaves. Only the
// run that owns `dir` calls this, when it starts or resumes: a reader must not touch the files of
// a run that may be writing. Logs each removal; returns how many were removed.
int remove_orphan_sidecars(const std::filesystem::path& dir);

// Test hook for crash recovery (scripts/kill_train.sh): when the environment variable
// HYDRA_CRASH_AT is `NAME` or `NAME:N`, the process kills itself with SIGKILL the N-th time
// (default 1) it passes the crash point NAME. Points sit between the file operations of every
// atomic write and of a checkpoint save, where a real crash or power cut could stop a run.
// Without the variable this is a load and a branch.
void crash_point(std::string_view name);

}  // namespace hydra
