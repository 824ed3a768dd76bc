// The graph domain's spectral node embeddings (embed/graph_spectral.hpp).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <pyd2ke/embed/graph_spectral.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using namespace pyd2ke_bindings;

namespace {

// Rows of out (total_nodes, n_eigenvectors) for the graphs of at most
// max_nodes nodes; the rows of larger graphs are left as they are.
void graph_spectral_into(Offsets node_offsets, Offsets edge_offsets, Offsets rows, Offsets cols,
                         CArray<double> weights, bool laplacian, std::size_t max_nodes, double eigen_rtol,
                         CArray<double> out, int n_threads) {
    if (node_offsets.ndim() != 1 || edge_offsets.ndim() != 1 || node_offsets.shape(0) < 1 ||
        edge_offsets.shape(0) != node_offsets.shape(0))
        throw py::value_error("node_offsets and edge_offsets must be 1-D, n_graphs + 1 long");
    if (rows.ndim() != 1 || cols.ndim() != 1 || weights.ndim() != 1 || cols.shape(0) != rows.shape(0) ||
        weights.shape(0) != rows.shape(0))
        throw py::value_error("rows, cols and weights must be 1-D, one entry per edge");
    // Private copies: another Python thread cannot change the bounds the
    // core checks and then reads with the GIL released. An edge's indices
    // are checked by the core as it reads them.
    const std::vector<std::int64_t> nodes(node_offsets.data(), node_offsets.data() + node_offsets.shape(0));
    const std::vector<std::int64_t> edges(edge_offsets.data(), edge_offsets.data() + edge_offsets.shape(0));
    const std::size_t n_graphs = nodes.size() - 1;
    if (nodes[n_graphs] < nodes[0]) throw py::value_error("node_offsets must be non-decreasing");
    if (out.ndim() != 2) throw py::value_error("out must be 2-D (total_nodes, n_eigenvectors)");
    check_out(out, static_cast<std::size_t>(nodes[n_graphs] - nodes[0]), static_cast<std::size_t>(out.shape(1)));
    const pyd2ke::PackedGraphs graphs{nodes.data(), edges.data(), n_graphs, rows.data(), cols.data(),
                                      weights.data(), static_cast<std::size_t>(rows.shape(0))};
    const std::size_t width = static_cast<std::size_t>(out.shape(1));
    double* target = out.mutable_data();
    const pyd2ke::GraphMatrix matrix = laplacian ? pyd2ke::GraphMatrix::laplacian : pyd2ke::GraphMatrix::adjacency;
    InterruptibleRelease release;
    pyd2ke::graph_spectral_embeddings(graphs, matrix, max_nodes, eigen_rtol, target, width, n_threads);
}

}  // namespace

void bind_graphs(py::module_& m) {
    m.def("graph_spectral_into", &graph_spectral_into, py::arg("node_offsets").noconvert(),
          py::arg("edge_offsets").noconvert(), py::arg("rows").noconvert(), py::arg("cols").noconvert(),
          py::arg("weights").noconvert(), py::arg("laplacian"), py::arg("max_nodes"), py::arg("eigen_rtol"),
          py::arg("out").noconvert(), py::arg("n_threads"),
          "Spectral node embeddings of the packed graphs of at most max_nodes nodes, into their rows of out "
          "(total_nodes, n_eigenvectors): normalised Laplacian (smallest) or adjacency (largest eigenvalues).");
}
