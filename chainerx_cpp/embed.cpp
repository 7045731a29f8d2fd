// The gradient of chainer.functions.embed_id: row i of gy is added into
// row ids[i] of gW, for every i whose id is not the ignore label.
//
// The caller passes either a zero-filled gW, so that the large, mostly
// untouched array comes from calloc (NumPy's zeros), or the running sum of
// the gradients of earlier steps, added to in place. Each thread adds into
// its own block of columns, visiting the ids in order: the sums are the
// ones numpy.add.at computes, in the same order. A negative id counts
// from the end and an id out of range raises IndexError, as in NumPy.
#include "loops.hpp"

namespace chainerx_cpp {
namespace {

using loops::in;
using loops::out;

// The row of gW for each id (-1 for an ignored one), checked.
template <typename I>
std::vector<int64_t> rows_of(const I* ids, int64_t n, int64_t rows,
                             std::optional<int64_t> ignore_label) {
    std::vector<int64_t> target(n);
    for (int64_t k = 0; k < n; ++k) {
        int64_t id = static_cast<int64_t>(ids[k]);
        if (ignore_label && id == *ignore_label) {
            target[k] = -1;
            continue;
        }
        if (id < -rows || id >= rows) {
            throw py::index_error(
                "index " + std::to_string(id) +
                " is out of bounds for axis 0 with size " +
                std::to_string(rows));
        }
        target[k] = id < 0 ? id + rows : id;
    }
    return target;
}

std::vector<int64_t> target_rows(const array& ids, int64_t rows,
                                 std::optional<int64_t> ignore_label) {
    const int64_t n = ids.size();
    if (ids.dtype().kind() != 'i') {
        throw std::invalid_argument("ids must be a signed integer array");
    }
    switch (ids.dtype().itemsize()) {
        case 1: return rows_of(in<int8_t>(ids), n, rows, ignore_label);
        case 2: return rows_of(in<int16_t>(ids), n, rows, ignore_label);
        case 4: return rows_of(in<int32_t>(ids), n, rows, ignore_label);
        case 8: return rows_of(in<int64_t>(ids), n, rows, ignore_label);
    }
    throw std::invalid_argument("ids must be a signed integer array");
}

template <typename T>
CHAINERX_CPP_CLONES void scatter_add(const int64_t* target, const T* gy,
                                     T* gw, int64_t n, int64_t width) {
    const bool many = n * width >= kParallelGrain;
#pragma omp parallel if (many)
    {
        // Blocks of whole cache lines of columns, one per thread.
        const int threads = omp_get_num_threads();
        const int64_t line = 64 / sizeof(T);
        const int64_t lines = (width + line - 1) / line;
        const int64_t per = (lines + threads - 1) / threads;
        const int64_t begin = std::min(width, omp_get_thread_num() * per * line);
        const int64_t end = std::min(width, begin + per * line);
        for (int64_t k = 0; k < n; ++k) {
            if (target[k] < 0) continue;
            const T* src = gy + k * width;
            T* dst = gw + target[k] * width;
#pragma omp simd
            for (int64_t c = begin; c < end; ++c) dst[c] += src[c];
        }
    }
}

// Adds the rows of gy (n, d) into the rows ids (n,) of gW (V, d).
void backward(const array& ids, const array& gy, array gw,
              std::optional<int64_t> ignore_label) {
    require_contiguous(ids, "ids", 1);
    require_float(gw, "gW");
    require_contiguous(gy, "gy", 2);
    if (gw.ndim() != 2 || !gy.dtype().equal(gw.dtype()) ||
        gy.shape(0) != ids.shape(0) || gy.shape(1) != gw.shape(1)) {
        throw std::invalid_argument(
            "ids, gy and gW must be (n,), (n, d) and (V, d) arrays");
    }
    const auto target = target_rows(ids, gw.shape(0), ignore_label);
    loops::with_float(gw, [&](auto zero) {
        using T = decltype(zero);
        const T* pgy = in<T>(gy);
        T* pgw = out<T>(gw);
        const int64_t n = ids.size();
        const int64_t width = gw.shape(1);
        py::gil_scoped_release release;
        scatter_add(target.data(), pgy, pgw, n, width);
    });
}

}  // namespace

void register_embed(py::module_& m) {
    m.def("embed_id_backward", &backward, py::arg("ids"), py::arg("gy"),
          py::arg("gW"), py::arg("ignore_label") = py::none(),
          "Adds the rows of gy into the rows ids of gW, in place.");
}

}  // namespace chainerx_cpp
