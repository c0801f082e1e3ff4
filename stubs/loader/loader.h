/*
 * The shared loader, as a stub's own code sees it: the library's
 * description, the load and the bind (loader_core.h), and every phase's
 * declarations, each in a header of its own. The loader's files include
 * only the ones they use.
 */
#ifndef CUDASTUB_LOADER_H
#define CUDASTUB_LOADER_H

#include "loader_core.h"
#include "loader_candidate.h"
#include "loader_companion.h"
#include "loader_elf.h"
#include "loader_ldcache.h"
#include "loader_load.h"
#include "loader_loaded.h"
#include "loader_log.h"
#include "loader_path.h"
#include "loader_probe.h"
#include "loader_process.h"
#include "loader_python.h"
#include "loader_search.h"
#include "loader_symtab.h"
#include "loader_trust.h"
#include "loader_versions.h"

#endif /* CUDASTUB_LOADER_H */
