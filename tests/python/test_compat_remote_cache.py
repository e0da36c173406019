"""triton.runtime.cache's remote caches under tessera.compat: a
RemoteCacheManager over the backend TRITON_REMOTE_CACHE_BACKEND names, its
files materialized locally, and the Redis backend (over a stand-in for the
redis package, which Tessera does not install)."""
import sys
import types

import pytest

import tessera.compat


@pytest.fixture
def cache(monkeypatch, tmp_path):
    was = tessera.compat.installed()
    tessera.compat.install(replace=True)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "local"))
    monkeypatch.setenv("TESSERA_CACHE_DIR", str(tmp_path / "local"))
    import triton.runtime.cache as module
    yield module
    if not was:
        tessera.compat.uninstall()


class DictBackend:
    stores = {}

    def __init__(self, key):
        self.store = DictBackend.stores.setdefault(key, {})

    def get(self, filenames):
        return {f: self.store[f] for f in filenames if f in self.store}

    def put(self, filename, data):
        self.store[filename] = data


def test_remote_manager_puts_remotely_and_materializes_locally(cache, monkeypatch):
    backend = type("MemoryBackend", (DictBackend, cache.RemoteCacheBackend), {})
    module = types.ModuleType("remote_backend_for_test")
    module.MemoryBackend = backend
    monkeypatch.setitem(sys.modules, "remote_backend_for_test", module)
    monkeypatch.setenv("TRITON_REMOTE_CACHE_BACKEND", "remote_backend_for_test:MemoryBackend")
    key = "ab" * 32
    writer = cache.RemoteCacheManager(key)
    path = writer.put(b"\x00cubin", "k.cubin")
    assert open(path, "rb").read() == b"\x00cubin" and DictBackend.stores[key]["k.cubin"] == b"\x00cubin"
    writer.put("text", "k.json", binary=False)
    writer.put_group("k.meta", {"k.cubin": path, "k.json": "unused"})
    assert DictBackend.stores[key]["__grp__k.meta"] == b'{"child_paths": ["k.cubin", "k.json"]}'
    DictBackend.stores[key]["k.only_remote"] = b"far"
    reader = cache.RemoteCacheManager(key)
    assert open(reader.get_file("k.only_remote"), "rb").read() == b"far"
    assert reader.get_file("missing") is None
    group = reader.get_group("k.meta")
    assert sorted(group) == ["k.cubin", "k.json"] and open(group["k.json"], "rb").read() == b"text"
    assert reader.get_group("no.group") is None


def test_remote_manager_needs_a_backend_of_the_right_type(cache, monkeypatch):
    monkeypatch.delenv("TRITON_REMOTE_CACHE_BACKEND", raising=False)
    with pytest.raises(RuntimeError, match="TRITON_REMOTE_CACHE_BACKEND doesn't point"):
        cache.RemoteCacheManager("cd" * 32)
    monkeypatch.setenv("TRITON_REMOTE_CACHE_BACKEND", "collections:OrderedDict")
    with pytest.raises(RuntimeError, match="not of type 'RemoteCacheBackend'"):
        cache.RemoteCacheManager("cd" * 32)


def test_redis_backend_keys_files_by_the_format(cache, monkeypatch):
    import triton
    server = {}

    class Redis:
        def __init__(self, host, port):
            self.address = (host, port)

        def mget(self, keys):
            return [server.get(k) for k in keys]

        def set(self, key, value):
            server[key] = value
    monkeypatch.setitem(sys.modules, "redis", types.SimpleNamespace(Redis=Redis))
    monkeypatch.setenv("TRITON_REDIS_PORT", "7000")
    backend = triton.runtime.RedisRemoteCacheBackend("KEY")
    assert backend._redis.address == ("localhost", 7000) and isinstance(backend, cache.RemoteCacheBackend)
    backend.put("a.ptx", b"ptx")
    assert server == {"triton:KEY:a.ptx": b"ptx"}
    assert backend.get(["a.ptx", "b.ptx"]) == {"a.ptx": b"ptx"}
