/* frontend.h - what the front end offers the programs and later stages:
 * parse a file into an AST, check it, dump it, print it back as source. */
#ifndef HPF_FRONTEND_H
#define HPF_FRONTEND_H

#include "ast.h"
#include "diag.h"
#include "remap.h"
#include "sema.h"
#include "source.h"

/* Parses f (in the given source form) into a SOURCE_FILE node allocated in
 * a. Diagnostics go to d; the tree is returned even when there were errors
 * (then it is incomplete and must not be checked further). */
Node *frontend_parse(const SrcFile *f, SourceForm form, Arena *a, Diag *d);

/* Parse and check in one call: NULL when any error was reported. */
Node *frontend_compile(const SrcFile *f, SourceForm form, Arena *a, Diag *d,
                  Define *defs, int ndefs);

/* frontend_compile under another data mapping: the file is parsed, its
 * DISTRIBUTE and PROCESSORS directives are rewritten to r (remap.h), then
 * it is checked as usual. r NULL, or the program's own mapping, compiles
 * the file as written. Problems with r are diagnostics like any other. */
Node *frontend_compile_remapped(const SrcFile *f, SourceForm form, Arena *a, Diag *d,
                                Define *defs, int ndefs, const Remap *r);

#endif
