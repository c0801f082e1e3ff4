"""Three extension modules, one a CUDA ABI: _probe13, _probe12, _probe11."""
