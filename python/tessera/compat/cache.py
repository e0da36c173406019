"""triton.runtime.cache under tessera.compat: the file cache API libraries
use for their own artifacts (`get_cache_manager(key).put(data, name)`),
kept in Tessera's cache directory (knobs.cache.dir, TESSERA_CACHE_DIR) in a
folder per key, as Triton keeps it in its own. Tessera's compiled kernels
are not stored here: the C library's compile cache keeps them.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import abc
import base64
import hashlib
import json
import os
import uuid

from . import knobs


class CacheManager(abc.ABC):
    """Files under one key (Triton's interface)."""

    def __init__(self, key, override=False, dump=False):
        pass

    @abc.abstractmethod
    def get_file(self, filename):
        """The path of `filename` under the key, or None."""

    @abc.abstractmethod
    def put(self, data, filename, binary=True):
        """Stores `data` (bytes, or text) as `filename`; returns its path."""

    @abc.abstractmethod
    def get_group(self, filename):
        """{name: path} of a group put_group stored, or None."""

    @abc.abstractmethod
    def put_group(self, filename, group):
        """Stores a group of files ({name: path})."""


class FileCacheManager(CacheManager):
    """The files of one key in a folder of the cache directory (the dump or
    override directory with dump=True or override=True). Writes are
    atomic: a file is written aside and renamed into place."""

    def __init__(self, key, override=False, dump=False):
        self.key = key
        if dump:
            base = knobs.cache.dump_dir
        elif override:
            base = knobs.cache.override_dir
        else:
            base = knobs.cache.dir
        if not base:
            raise RuntimeError("Could not create or locate cache dir")
        self.cache_dir = os.path.join(base, key)
        self.lock_path = None if override else os.path.join(self.cache_dir, "lock")
        if not override:
            os.makedirs(self.cache_dir, exist_ok=True)

    def _make_path(self, filename):
        return os.path.join(self.cache_dir, filename)

    def has_file(self, filename):
        return os.path.exists(self._make_path(filename))

    def get_file(self, filename):
        return self._make_path(filename) if self.has_file(filename) else None

    def get_group(self, filename):
        children = _group_children(self, filename)
        if children is None:
            return None
        return {name: p for name, p in children.items() if os.path.exists(p)}

    def put_group(self, filename, group):
        return self.put(json.dumps({"child_paths": group}), "__grp__" + filename, binary=False)

    def put(self, data, filename, binary=True):
        if os.path.basename(filename) != filename or filename in ("", ".", ".."):
            raise ValueError("a cache file name has no directory part, not %r" % (filename,))
        binary = isinstance(data, (bytes, bytearray))
        if not binary:
            data = str(data)
        os.makedirs(self.cache_dir, exist_ok=True)
        path = self._make_path(filename)
        temp = os.path.join(self.cache_dir, ".tmp.%d.%s.%s" % (os.getpid(), uuid.uuid4().hex, filename))
        try:
            with open(temp, "wb" if binary else "w") as f:
                f.write(data)
            os.replace(temp, path)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
        return path


class RemoteCacheBackend:
    """A remote or distributed store (Triton's base class, for libraries
    that subclass it); Tessera ships none."""

    def __init__(self, key):
        pass

    @abc.abstractmethod
    def get(self, filenames):
        """{name: bytes} of those of `filenames` the store has."""

    @abc.abstractmethod
    def put(self, filename, data):
        """Stores `data` (bytes) as `filename`."""


class RedisRemoteCacheBackend(RemoteCacheBackend):
    """Files in a Redis server (the `redis` package, which Tessera does not
    install): knobs.redis' host, port and key format ("triton:{key}:{filename}")."""

    def __init__(self, key):
        import redis
        self._key, self._key_format = key, knobs.redis.key_format
        self._redis = redis.Redis(host=knobs.redis.host, port=knobs.redis.port)

    def _name(self, filename):
        return self._key_format.format(key=self._key, filename=filename)

    def get(self, filenames):
        values = self._redis.mget([self._name(f) for f in filenames])
        return {f: v for f, v in zip(filenames, values) if v is not None}

    def put(self, filename, data):
        self._redis.set(self._name(filename), data)


class RemoteCacheManager(CacheManager):
    """A cache in the RemoteCacheBackend that TRITON_REMOTE_CACHE_BACKEND
    names (MODULE:CLASS), its files materialized in a local FileCacheManager
    to be read as paths. Dump and override folders stay local."""

    def __init__(self, key, override=False, dump=False):
        backend = knobs.cache.remote_manager_class
        if not backend:
            raise RuntimeError("Unable to instantiate RemoteCacheManager, TRITON_REMOTE_CACHE_BACKEND doesn't point "
                               "to a valid class")
        self._backend, self._local = backend(key), FileCacheManager(key, override=override, dump=dump)
        self._remote = not (override or dump)

    def get_file(self, filename):
        if not self._remote:
            return self._local.get_file(filename)
        found = self._backend.get([filename])  # asked even when a local copy exists: the store's LRU counts it
        if not found:
            return None
        return self._local.put(found[filename], filename, binary=True)

    def put(self, data, filename, binary=True):
        if not self._remote:
            return self._local.put(data, filename, binary=binary)
        data = data if isinstance(data, bytes) else str(data).encode("utf-8")
        self._backend.put(filename, data)
        return self._local.put(data, filename, binary=True)

    def get_group(self, filename):
        """{child: local path} of the group's files the store has, or None."""
        if not self._remote:
            return self._local.get_group(filename)
        children = _group_children(self, filename)
        if children is None:
            return None
        return {name: self._local.put(data, name, binary=True) for name, data in self._backend.get(children).items()}

    def put_group(self, filename, group):
        """Records the group's children by name (their files are put on their own)."""
        if not self._remote:
            return self._local.put_group(filename, group)
        return self.put(json.dumps({"child_paths": sorted(group)}), "__grp__" + filename, binary=False)


def _group_children(manager, filename):
    """The child_paths of a group's record ("__grp__" + filename), or None."""
    path = manager.get_file("__grp__" + filename)
    if path is None:
        return None
    with open(path) as f:
        return json.load(f).get("child_paths")


def _base32(key):
    # Triton's folder names: the hash in base 32, shorter than hex.
    return base64.b32encode(bytes.fromhex(key)).decode().rstrip("=")


def _manager_class():
    return knobs.cache.manager_class or FileCacheManager  # the knob imports and checks MODULE:CLASS


def get_cache_manager(key):
    return _manager_class()(_base32(key))


def get_override_manager(key):
    return _manager_class()(_base32(key), override=True)


def get_dump_manager(key):
    return _manager_class()(_base32(key), dump=True)


def triton_key():
    """What identifies the compiler in cache keys: Tessera's version and build."""
    from .. import _C
    return "tessera-" + _C.version()


def _hash_of(x):
    return x.hash() if callable(getattr(x, "hash", None)) else str(x)


def get_cache_key(src, backend, backend_options, env_vars):
    """A hash of what a compile depends on (Triton's arguments: the source,
    the backend and its options, each by its hash() where it has one, and
    the environment variables that matter)."""
    env = sorted(env_vars.items()) if isinstance(env_vars, dict) else env_vars
    text = "-".join([triton_key(), _hash_of(src), _hash_of(backend), _hash_of(backend_options), str(env)])
    return hashlib.sha256(text.encode()).hexdigest()


def make_so_cache_key(version_hash, signature, constants, ids, **kwargs):
    """A hash of a launcher's specialization (Triton's)."""
    signature = {k: "ptr" if v[0] == "*" else v for k, v in signature.items()}
    text = "%s-%s-%s-%s" % (version_hash, "".join(signature.values()), constants, ids)
    for key in sorted(kwargs):
        text += "-%s" % (kwargs[key],)
    return hashlib.sha256(text.encode()).hexdigest()
