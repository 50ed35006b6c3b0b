//! Move generation: fast playouts and Monte Carlo tree search.
