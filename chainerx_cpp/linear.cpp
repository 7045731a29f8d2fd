// Matrix products of the linear layer through oneDNN (its matmul
// primitive, or its sgemm for plain products of few rows):
// y = op(a) op(b) (+ bias), op a transpose or not, in float32.
//
// The forward of F.linear is gemm(x, W, false, true, b), its input
// gradient gemm(gy, W, false, false) and its weight gradient
// gemm(gy, x, true, false). Given `add_to`, the product is added to that
// array in place (oneDNN's sum post-op) and it is returned: a weight
// gradient summed over the steps of a recurrent network then needs no new
// array and no separate pass over the sum per step. Running them on the
// kernels' own OpenMP threads keeps NumPy's BLAS threads from spinning
// beside them.
#include "common.hpp"

namespace chainerx_cpp {
namespace {

// Plain products (no transpose, bias or sum) of at most this many rows go
// through oneDNN's sgemm, which reads b as it is: the matmul primitive
// first copies b into its blocked layout, which costs more than the
// product when a has few rows (a recurrent network's input gradient per
// step: 20 x 10000 by 10000 x 650 takes 0.70 ms instead of 0.93 ms).
constexpr int64_t kSgemmMaxRows = 64;

// The (rows, cols) matrix that `a` holds, transposed or not, as a oneDNN
// description of a's own buffer.
dnnl::memory::desc matrix_desc(const array& a, bool transpose) {
    const int64_t r = a.shape(0), c = a.shape(1);
    if (transpose) {
        return {{c, r}, dnnl::memory::data_type::f32, dims{1, c}};
    }
    return {{r, c}, dnnl::memory::data_type::f32, dims{c, 1}};
}

// Whether the buffers of two contiguous arrays share a byte.
bool overlaps(const array& p, const array& q) {
    const char* p0 = static_cast<const char*>(p.data());
    const char* q0 = static_cast<const char*>(q.data());
    return p0 < q0 + q.nbytes() && q0 < p0 + p.nbytes();
}

array gemm(const array& a, const array& b, bool trans_a, bool trans_b,
           py::object bias, py::object add_to) {
    require_contiguous(a, "a", 2);
    require_contiguous(b, "b", 2);
    if (data_type_of(a) != dnnl::memory::data_type::f32 ||
        data_type_of(b) != dnnl::memory::data_type::f32) {
        throw std::invalid_argument("gemm takes float32 arrays");
    }
    const int64_t m = trans_a ? a.shape(1) : a.shape(0);
    const int64_t k = trans_a ? a.shape(0) : a.shape(1);
    const int64_t kb = trans_b ? b.shape(1) : b.shape(0);
    const int64_t n = trans_b ? b.shape(0) : b.shape(1);
    if (k != kb) {
        throw std::invalid_argument("gemm: inner dimensions differ");
    }
    const bool with_bias = !bias.is_none();
    array bias_array;
    if (with_bias) {
        bias_array = bias.cast<array>();
        require_contiguous(bias_array, "bias", 1);
        if (bias_array.shape(0) != n ||
            data_type_of(bias_array) != dnnl::memory::data_type::f32) {
            throw std::invalid_argument(
                "gemm: bias must be float32 of the output width");
        }
    }
    const bool accumulate = !add_to.is_none();
    array y;
    if (accumulate) {
        y = add_to.cast<array>();
        require_contiguous(y, "add_to", 2);
        if (y.shape(0) != m || y.shape(1) != n ||
            data_type_of(y) != dnnl::memory::data_type::f32 ||
            !y.writeable()) {
            throw std::invalid_argument(
                "gemm: add_to must be a writeable float32 array of the "
                "product's shape");
        }
        if (overlaps(y, a) || overlaps(y, b)) {
            throw std::invalid_argument(
                "gemm: add_to must not share memory with a or b");
        }
    } else {
        y = empty_like_dtype(a, {m, n});
    }
    const bool plain_product = !trans_a && !trans_b && !with_bias &&
                               !accumulate && m <= kSgemmMaxRows;
    float* out = static_cast<float*>(y.mutable_data());
    {
        py::gil_scoped_release release;
        SerialScope serial(m * n * k < kParallelMultiplyAdds);
        if (plain_product) {
            const auto status = dnnl_sgemm(
                'N', 'N', m, n, k, 1.0f,
                static_cast<const float*>(a.data()), k,
                static_cast<const float*>(b.data()), n, 0.0f, out, n);
            if (status != dnnl_success) {
                throw std::runtime_error("dnnl_sgemm failed");
            }
        } else {
            auto a_desc = matrix_desc(a, trans_a);
            auto b_desc = matrix_desc(b, trans_b);
            dnnl::memory::desc y_desc({m, n}, dnnl::memory::data_type::f32,
                                      tag::ab);
            auto bias_desc = with_bias
                ? dnnl::memory::desc({1, n}, dnnl::memory::data_type::f32,
                                     tag::ab)
                : dnnl::memory::desc();
            static PrimitiveCache<dnnl::matmul::primitive_desc,
                                  dnnl::matmul> cache;
            std::string key;
            append_key(key, std::vector<int64_t>{
                m, n, k, trans_a, trans_b, with_bias, accumulate});
            auto [pd, product] = cache.get(key, [&]() {
                auto attr = kernel_attr();
                if (accumulate) {
                    dnnl::post_ops sum;
                    sum.append_sum(1.0f);
                    attr.set_post_ops(sum);
                }
                return dnnl::matmul::primitive_desc(
                    cpu_engine(), a_desc, b_desc, bias_desc, y_desc, attr);
            });
            std::unordered_map<int, dnnl::memory> args{
                {DNNL_ARG_SRC, dnnl::memory(a_desc, cpu_engine(),
                                            const_cast<void*>(a.data()))},
                {DNNL_ARG_WEIGHTS, dnnl::memory(b_desc, cpu_engine(),
                                                const_cast<void*>(b.data()))},
                {DNNL_ARG_DST, dnnl::memory(y_desc, cpu_engine(), out)}};
            if (with_bias) {
                args[DNNL_ARG_BIAS] = dnnl::memory(
                    bias_desc, cpu_engine(),
                    const_cast<void*>(bias_array.data()));
            }
            run(product, pd.scratchpad_desc(), std::move(args));
        }
    }
    return y;
}

}  // namespace

void register_linear(py::module_& m) {
    m.def("gemm", &gemm, py::arg("a"), py::arg("b"), py::arg("trans_a"),
          py::arg("trans_b"), py::arg("bias") = py::none(),
          py::arg("add_to") = py::none());
}

}  // namespace chainerx_cpp
