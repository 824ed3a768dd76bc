"""Random features for kernels on sample sets seen as densities (D. J.
Sutherland, J. B. Oliva, B. Poczos and J. Schneider, "Linear-time Learning on
Distributions with Approximate Kernel Embeddings", AAAI 2016).

A homogeneous density distance (HDD) is d^2(p, q) = int kappa(p(x), q(x)) dx
with kappa(x, y) = int |x^(1/2 + i lambda) - y^(1/2 + i lambda)|^2 dmu(lambda).
For K(p, q) = exp(-d^2(p, q) / (2 sigma^2)) each sample set goes through:

1. the fit-time affine map of the data onto [0, 1]^l;
2. a Gaussian kernel density estimate p, evaluated at n_e integration points
   shared by all sets;
3. psi(p) = sqrt(Z / M) [Re, Im] p(u)^(1/2 + i lambda_j) for M lambdas drawn
   from mu / Z (Z the total mass of mu);
4. A(p): the projections of the 2M functions psi(p) onto |V| tensor-product
   basis functions (cosine or Fourier) by numerical integration, so that
   ||A(p) - A(q)||^2 approximates d^2(p, q);
5. random Fourier features of A(p) for the RBF kernel of width sigma.

Step 2 on the grid runs in the core without the GIL; steps 3-5 are matrix
products (BLAS) and vectorised numpy maps over blocks of sets; blocks never
depend on n_jobs and each runs single-threaded BLAS, so the output is
bit-identical whatever the thread count. The L2 density kernel
(Oliva et al. 2014; psi(p) = p) and the MMD mean-embedding kernel (Muandet et
al. 2012) are the paper's baselines and live here too.

One concept per module: measures (the lambda measures), basis (basis
functions and indices), kde (density estimates of whole blocks of sets),
bandwidth (the KDE bandwidth rules), _base (scaling, blocks, threads and
the final random Fourier features), features (DensityKernelFeatures), mmd
(MeanEmbeddingFeatures).
"""

from .bandwidth import BANDWIDTH_RULES, cv_bandwidth, scott_bandwidth
from .basis import basis_indices, basis_matrix
from .features import DENSITY_FLOOR, DensityKernelFeatures
from .measures import DIVERGENCES, MEASURE_MASS, sample_lambdas
from .mmd import MeanEmbeddingFeatures

__all__ = [
    "BANDWIDTH_RULES",
    "DENSITY_FLOOR",
    "DIVERGENCES",
    "MEASURE_MASS",
    "DensityKernelFeatures",
    "MeanEmbeddingFeatures",
    "basis_indices",
    "basis_matrix",
    "cv_bandwidth",
    "sample_lambdas",
    "scott_bandwidth",
]
