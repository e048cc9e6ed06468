/* scan.h - the Flex scanner's interface, written by hand so that no
 * generated header is needed (the scanner is built with %option reentrant and
 * a prefix of its own). It reads the reader's logical lines, one token at a
 * time, and knows nothing of statements: parse.c's token filter does. */
#ifndef HPF_SCAN_H
#define HPF_SCAN_H

#include "diag.h"
#include "source.h"
#include "util.h"

typedef struct {
    int kind;            /* a Bison token code from parse.h; 0 at the end */
    Loc loc;
    const char *text;    /* names lowercased; constants as written */
} Token;

/* What the scanner needs besides its input: where bytes came from, where
 * tokens and messages go. */
typedef struct {
    const Logical *lg;
    const SrcFile *file;
    Arena *arena;
    Diag *diag;
    int failed;          /* an error was reported in this statement: say no more */
} ScanEnv;

typedef void *Scanner;
Scanner scan_open(ScanEnv *env);
int scan_next(Scanner s, Token *tok);     /* returns tok->kind */
void scan_close(Scanner s);

#endif
