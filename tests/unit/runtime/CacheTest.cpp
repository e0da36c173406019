// The on-disk compile cache: its file format, the environment switches, and
// several processes compiling the same kernel at once (runtime_cache_worker).
#include "runtime/CompileCache.h"
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

using namespace tessera::runtime;
using tessera::test::TempDir;

namespace {

CacheEntry sampleEntry() {
  CacheEntry e;
  e.metadata["entry"] = "add_kernel";
  e.metadata["tricky"] = "12:line one\nline two\n:\x01";
  e.binary = {0x7f, 'E', 'L', 'F', 0, 1, 2, 255, '\n', ':'};
  return e;
}

// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const char *v) : name(n) { ::setenv(n, v, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

} // namespace

TEST(CompileCache, StoreAndLookup) {
  TempDir dir;
  CompileCache cache(dir.path + "/a/b", true);  // created on first store
  CacheEntry out;
  EXPECT_FALSE(cache.lookup("k1", out));
  ASSERT_TRUE(cache.store("k1", sampleEntry()).isOk());
  ASSERT_TRUE(cache.lookup("k1", out));
  EXPECT_EQ(out.metadata, sampleEntry().metadata);
  EXPECT_EQ(out.binary, sampleEntry().binary);
  // Nothing but the entry is left in the directory.
  int files = 0;
  for (auto &f : std::filesystem::directory_iterator(dir.path + "/a/b")) {
    ++files;
    EXPECT_EQ(f.path().extension(), ".tkc");
  }
  EXPECT_EQ(files, 1);
}

TEST(CompileCache, DamagedEntriesAreMisses) {
  std::string bytes = CompileCache::serialize(sampleEntry());
  CacheEntry out;
  ASSERT_TRUE(CompileCache::deserialize(bytes, out));
  for (size_t cut : {size_t(0), size_t(5), bytes.size() / 2, bytes.size() - 1})
    EXPECT_FALSE(CompileCache::deserialize(bytes.substr(0, cut), out)) << cut;
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 1;
  EXPECT_FALSE(CompileCache::deserialize(flipped, out));
  TempDir dir;
  CompileCache cache(dir.path, true);
  std::ofstream(cache.pathFor("bad")) << bytes.substr(0, bytes.size() - 10);
  EXPECT_FALSE(cache.lookup("bad", out));
}

// An entry answers only its own key, and only a regular file is read.
TEST(CompileCache, EntriesKnowTheirKeyAndOnlyFilesAreRead) {
  TempDir dir;
  CompileCache cache(dir.path, true);
  ASSERT_TRUE(cache.store("k1", sampleEntry()).isOk());
  std::filesystem::copy_file(cache.pathFor("k1"), cache.pathFor("k2"));  // intact, but k1's
  CacheEntry out;
  EXPECT_TRUE(cache.lookup("k1", out));
  EXPECT_EQ(out.metadata, sampleEntry().metadata);  // the key field stays inside the cache
  EXPECT_FALSE(cache.lookup("k2", out));
  ASSERT_EQ(::mkfifo(cache.pathFor("k3").c_str(), 0644), 0);
  EXPECT_FALSE(cache.lookup("k3", out));  // returns at once: a read would block forever
  std::filesystem::create_directory(cache.pathFor("k4"));
  EXPECT_FALSE(cache.lookup("k4", out));
}

TEST(CompileCache, Environment) {
  {
    ScopedEnv d("TESSERA_CACHE_DIR", "/some/where");
    CompileCache c = CompileCache::fromEnvironment();
    EXPECT_EQ(c.directory(), "/some/where");
    EXPECT_TRUE(c.enabled());
    ScopedEnv a("TESSERA_ALWAYS_COMPILE", "1");
    EXPECT_FALSE(CompileCache::fromEnvironment().enabled());
  }
  ScopedEnv h("HOME", "/home/someone");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(CompileCache::fromEnvironment().directory(), "/home/someone/.cache/tessera");
}

TEST(CompileCache, DisabledCacheNeitherReadsNorWrites) {
  TempDir dir;
  CompileCache off(dir.path, false);
  ASSERT_TRUE(off.store("k", sampleEntry()).isOk());
  CacheEntry out;
  EXPECT_FALSE(CompileCache(dir.path, true).lookup("k", out));
}

TEST(CompileCache, ManyProcessesCompileTheSameKernel) {
  std::string error;
  std::string so = tessera::test::abiKernelsPath(&error);
  ASSERT_FALSE(so.empty()) << error;
  TempDir dir;
  ScopedEnv env("TESSERA_CACHE_DIR", dir.path.c_str());
  std::vector<pid_t> pids;
  for (int i = 0; i < 8; ++i) {
    std::string rounds = "3";
    char *argv[] = {const_cast<char *>(TESSERA_CACHE_WORKER), so.data(), rounds.data(), nullptr};
    pid_t pid;
    ASSERT_EQ(posix_spawn(&pid, TESSERA_CACHE_WORKER, nullptr, nullptr, argv, environ), 0);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "worker status " << status;
  }
  int entries = 0, others = 0;
  for (auto &f : std::filesystem::directory_iterator(dir.path))
    (f.path().extension() == ".tkc" ? entries : others)++;
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(others, 0);  // no temp files left behind
}
