// The memory of the arrays the kernels return: a NumPy memory handler
// (PyDataMem_Handler) that keeps freed blocks for the next arrays of the
// same size class, in force only while a kernel allocates its outputs.
//
// A training step allocates the same arrays anew each step. Freed to
// glibc, a block of 128 KiB or more goes back to the system, and every
// page of the next one faults on its first touch, which costs as much as
// the arithmetic of a small model. Kept here, the next step's array gets a
// block whose pages are mapped already. Only the arrays the kernels make
// come from the cache (the handler is set around their allocation, in the
// calling thread's context, and NumPy frees each array with the handler
// that allocated it); malloc and every other array of the process are left
// as they are.
#define NPY_NO_DEPRECATED_API NPY_1_22_API_VERSION
#define NPY_TARGET_VERSION NPY_1_22_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL chainerx_cpp_ARRAY_API
#include <numpy/arrayobject.h>

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "common.hpp"

namespace chainerx_cpp {
namespace {

// Blocks smaller than this come from malloc and go back to it: glibc keeps
// them in its heap already.
constexpr size_t kMinCached = size_t{1} << 16;
// The most freed memory the cache keeps; a miss while it holds more than
// half of it gives everything it keeps back to malloc.
constexpr size_t kMaxCached = size_t{256} << 20;
// Blocks of this size or more are advised to use transparent huge pages,
// as NumPy's own allocator does.
constexpr size_t kHugePageMin = size_t{4} << 20;
// Each block starts with a header that records its capacity; the data
// after it keeps malloc's 16-byte alignment.
constexpr size_t kHeader = 16;

// The capacity a request of `size` bytes gets: sizes of 64 KiB and more
// are rounded up to one of eight steps between powers of two, so that
// arrays of similar sizes share blocks.
size_t size_class(size_t size) {
    if (size < kMinCached) return size;
    int bits = 63 - __builtin_clzll(size);
    size_t step = size_t{1} << (bits - 3);
    return (size + step - 1) / step * step;
}

struct Cache {
    std::mutex mutex;
    std::unordered_map<size_t, std::vector<char*>> free_blocks;
    size_t cached = 0;
    uint64_t hits = 0;
    uint64_t misses = 0;
};

// Never destroyed: arrays may be freed while the interpreter shuts down.
Cache* cache = new Cache();

size_t& capacity_of(char* block) { return *reinterpret_cast<size_t*>(block); }

void release_all_locked(std::vector<char*>* out) {
    for (auto& entry : cache->free_blocks) {
        out->insert(out->end(), entry.second.begin(), entry.second.end());
    }
    cache->free_blocks.clear();
    cache->cached = 0;
}

// A block of `capacity` bytes from the cache, or nullptr.
char* take(size_t capacity) {
    std::vector<char*> dropped;
    {
        std::lock_guard<std::mutex> lock(cache->mutex);
        auto it = cache->free_blocks.find(capacity);
        if (it != cache->free_blocks.end() && !it->second.empty()) {
            char* block = it->second.back();
            it->second.pop_back();
            cache->cached -= capacity;
            ++cache->hits;
            return block;
        }
        ++cache->misses;
        if (cache->cached > kMaxCached / 2) release_all_locked(&dropped);
    }
    for (char* b : dropped) std::free(b);
    return nullptr;
}

char* fresh(size_t capacity, bool zero) {
    char* block = static_cast<char*>(zero ? std::calloc(1, capacity + kHeader)
                                          : std::malloc(capacity + kHeader));
    if (block == nullptr) return nullptr;
    capacity_of(block) = capacity;
#if defined(MADV_HUGEPAGE)
    if (capacity >= kHugePageMin) {
        const uintptr_t page = 4096;
        uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + kHeader +
                           page - 1) & ~(page - 1);
        uintptr_t end = (reinterpret_cast<uintptr_t>(block) + kHeader +
                         capacity) & ~(page - 1);
        if (end > begin) {
            madvise(reinterpret_cast<void*>(begin), end - begin,
                    MADV_HUGEPAGE);
        }
    }
#endif
    return block;
}

void* cache_malloc(void*, size_t size) {
    const size_t capacity = size_class(size);
    char* block = capacity >= kMinCached ? take(capacity) : nullptr;
    if (block == nullptr) block = fresh(capacity, false);
    return block == nullptr ? nullptr : block + kHeader;
}

void* cache_calloc(void*, size_t n, size_t elsize) {
    if (elsize != 0 && n > SIZE_MAX / elsize) return nullptr;
    const size_t size = n * elsize;
    const size_t capacity = size_class(size);
    char* block = capacity >= kMinCached ? take(capacity) : nullptr;
    if (block != nullptr) {
        std::memset(block + kHeader, 0, size);
        return block + kHeader;
    }
    block = fresh(capacity, true);
    return block == nullptr ? nullptr : block + kHeader;
}

void cache_free(void*, void* p, size_t) {
    if (p == nullptr) return;
    char* block = static_cast<char*>(p) - kHeader;
    const size_t capacity = capacity_of(block);
    if (capacity >= kMinCached) {
        std::lock_guard<std::mutex> lock(cache->mutex);
        if (cache->cached + capacity <= kMaxCached) {
            cache->free_blocks[capacity].push_back(block);
            cache->cached += capacity;
            return;
        }
    }
    std::free(block);
}

void* cache_realloc(void* ctx, void* p, size_t size) {
    if (p == nullptr) return cache_malloc(ctx, size);
    char* block = static_cast<char*>(p) - kHeader;
    const size_t old = capacity_of(block);
    if (size <= old) return p;
    void* grown = cache_malloc(ctx, size);
    if (grown == nullptr) return nullptr;
    std::memcpy(grown, p, old);
    cache_free(ctx, p, old);
    return grown;
}

PyDataMem_Handler handler = {
    "chainerx_cpp_array_cache",
    1,
    {nullptr, cache_malloc, cache_calloc, cache_realloc, cache_free}};

PyObject* handler_capsule = nullptr;

}  // namespace

ArrayCacheScope::ArrayCacheScope(size_t nbytes) {
    if (handler_capsule == nullptr || size_class(nbytes) < kMinCached) return;
    previous_ = PyDataMem_SetHandler(handler_capsule);
    if (previous_ == nullptr) throw py::error_already_set();
}

ArrayCacheScope::~ArrayCacheScope() {
    if (previous_ == nullptr) return;
    PyObject* ours = PyDataMem_SetHandler(previous_);
    Py_XDECREF(ours);
    Py_DECREF(previous_);
}

size_t nbytes_of(const py::dtype& dtype, const dims& shape) {
    size_t n = static_cast<size_t>(dtype.itemsize());
    for (int64_t d : shape) n *= static_cast<size_t>(d);
    return n;
}

void register_array_cache(py::module_& m) {
    if (_import_array() < 0) throw py::error_already_set();
    handler_capsule = PyCapsule_New(&handler, "mem_handler", nullptr);
    if (handler_capsule == nullptr) throw py::error_already_set();
    m.def("array_cache_info", []() {
        std::lock_guard<std::mutex> lock(cache->mutex);
        py::dict info;
        info["cached_bytes"] = cache->cached;
        info["hits"] = cache->hits;
        info["misses"] = cache->misses;
        return info;
    }, "How much freed memory the kernels' array cache holds, and its "
       "hits and misses.");
    m.def("clear_array_cache", []() {
        std::vector<char*> dropped;
        size_t freed;
        {
            std::lock_guard<std::mutex> lock(cache->mutex);
            freed = cache->cached;
            release_all_locked(&dropped);
        }
        for (char* b : dropped) std::free(b);
        return freed;
    }, "Gives the freed memory the array cache holds back to malloc; "
       "returns its size in bytes.");
    m.def("_with_array_cache", [](py::function f) {
        ArrayCacheScope scope(kMinCached);
        return f();
    }, "Calls f() with the array cache in force for arrays of 64 KiB or "
       "more (for tests).");
    m.def("reset_array_cache_after_fork", []() {
        // The child of a fork has one thread: a lock another thread of the
        // parent held stays held. The kept blocks are the child's copies.
        cache = new Cache();
    });
}

}  // namespace chainerx_cpp
