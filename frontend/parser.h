/* parser.h - the parser's state, shared by the grammar (parse.y), the token
 * filter (filter.c) and the construct builder (build.c). Not for use outside
 * the front end: other stages see only frontend.h. */
#ifndef HPF_PARSER_H
#define HPF_PARSER_H

#include "ast.h"
#include "scan.h"

enum { MAX_NEST = 100, MAX_PAREN = 200, MAX_EXPR_DEPTH = 2000 };

/* An open construct: a program unit, or a block inside one. */
typedef struct {
    Node *node;          /* UNIT, IF, DO, DO_WHILE, FORALL or WHERE */
    PtrVec *body;        /* where the next statement goes */
    int contains;        /* a unit past its CONTAINS */
    int has_else;        /* an IF or WHERE that saw its ELSE / unmasked ELSEWHERE */
    Node *deflt;         /* SELECT CASE: its CASE DEFAULT branch, put last at its END */
} Construct;

typedef struct Parser {
    Arena *arena;
    Diag *diag;
    const SrcFile *file;
    ScanEnv env;
    Scanner scanner;

    /* token filter: one statement of tokens at a time */
    Token *toks;
    int ntoks, captoks, next;
    int at_eof;
    int scan_failed;          /* the scanner reported an error in this statement */
    const char *skip_until;   /* refused block construct: its END word */
    Loc skip_loc;

    /* construct builder */
    Node *file_node;          /* SOURCE_FILE */
    Construct stack[MAX_NEST];
    int nstack;
    int label;                /* label of the statement being parsed */
    Node *independent;        /* an INDEPENDENT waiting for its DO or FORALL */
    PtrVec formats;           /* FORMAT statements read, not yet given to their unit */
    PtrVec datas;             /* DATA sets likewise */
    PtrVec uses;              /* USE statements likewise (AST_USE_STMT) */
    int recursive;            /* RECURSIVE read before the procedure statement */
    PtrVec indep_vars;        /* INDEPENDENT (i, j): the DO variables it names that
                                 no DO of the nest has taken yet (AST_NAME) */
    Loc eof_loc;
} Parser;

/* filter.c */
int filter_next(Parser *p, Token *out);

/* build.c: called by grammar actions, one per statement */
void bld_add(Parser *p, Node *stmt);
void bld_unit(Parser *p, int which, Token name, PtrVec args, const char *result,
              TypeSpec *rtype, Loc loc);
void bld_contains(Parser *p, Loc loc);
void bld_formats(Parser *p, Node *u);
void bld_end(Parser *p, int what, const char *name, Loc loc);
void bld_open(Parser *p, Node *construct);        /* IF, DO, DO_WHILE, FORALL, WHERE */
void bld_else(Parser *p, AstKind branch_kind, Node *cond, Loc loc);
void bld_select(Parser *p, Node *selector, Loc loc);    /* SELECT CASE: an IF chain */
void bld_case(Parser *p, PtrVec values, int deflt, Loc loc);
void bld_independent(Parser *p, Node *dir);
void bld_independent_list(Parser *p, Node *dir, PtrVec vars);  /* INDEPENDENT (i, j) */
void bld_finish(Parser *p);

/* parse.y */
Node *mk_expr(Parser *p, AstKind k, Loc loc);
Node *parse_konst(Parser *p, AstKind k, const char *text, Loc loc);
void parse_error(Parser *p, Loc loc, const char *fmt, ...) HPF_PRINTF(3, 4);

#endif
