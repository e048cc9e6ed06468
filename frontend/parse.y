/* parse.y - the Bison grammar of the HPF/Fortran 90D subset.
 * The grammar is statement by statement: each rule recognises one statement
 * (or one directive) and its action hands the new node to the construct
 * builder (build.c), which keeps the stack of open program units and blocks.
 * That is how labelled DO termination, "END DO expected (to close DO at line
 * 12)" and recovery at each statement boundary come out right. Actions build
 * the raw tree only; all meaning is given later by sema.c.
 * Fortran 95 syntax rules are cited as R-numbers where they help. */
%code top {
#include <config.h>
}

%code requires {
#include "ast.h"
#include "diag.h"
struct Parser;
}

%code provides {
int hpf_lex(HPF_STYPE *lval, Loc *lloc, struct Parser *p);
}

%code {
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

#define YYLLOC_DEFAULT(cur, rhs, n)                             \
    do {                                                        \
        if (n) {                                                \
            (cur) = YYRHSLOC(rhs, 1);                           \
            (cur).eline = YYRHSLOC(rhs, n).eline;               \
            (cur).ecol = YYRHSLOC(rhs, n).ecol;                 \
        } else {                                                \
            (cur) = YYRHSLOC(rhs, 0);                           \
            (cur).line = (cur).eline;                           \
            (cur).col = (cur).ecol;                             \
        }                                                       \
    } while (0)

static void hpf_error(Loc *loc, struct Parser *p, const char *msg);
static Node *binop(Parser *p, Op op, Node *l, Node *r, Loc loc);
static Node *unop(Parser *p, AstKind k, Op op, Node *e, Loc loc);
static Node *konst(Parser *p, AstKind k, const char *text, Loc loc);
static Node *paren_list(Parser *p, PtrVec items, Loc loc);
static Node *named(Parser *p, AstKind k, const char *id, Loc loc);
static void align_several(Parser *p, Node *n, PtrVec more);
static void indep_clause(Parser *p, const char *word, Loc loc);
static Node *list_node(Parser *p, AstKind k, PtrVec items, Loc loc);
static int label_value(Parser *p, const char *text, Loc loc);
static PtrVec one(Parser *p, Node *n);
static PtrVec more(Parser *p, PtrVec v, Node *n);
static TypeSpec *spec(Parser *p, TypeBase base, Node *kind, Node *len, int star, Loc loc);
static Node *dist_format(Parser *p, const char *word, Node *arg, Loc loc);
static Node *io_stmt(Parser *p, AstKind k, Node *fmt, PtrVec control, PtrVec items, Loc loc);
static Node *loop_stmt(Parser *p, int end_label, Node *head, Loc loc);
static Node *goto_node(Parser *p, const char *label, Loc loc);
static Node *jump_if(Parser *p, int which, Node *e, PtrVec gotos, Loc loc);
static const PtrVec empty;
}

%define api.pure full
%define api.prefix {hpf_}
%define parse.error detailed
%locations
%define api.location.type {Loc}
%expect 0
%param {struct Parser *p}

%union {
    const char *str;
    Node *node;
    PtrVec vec;
    TypeSpec *spec;
    int ival;
}

%token <str> T_NAME "name" T_INT "integer constant" T_REAL "real constant"
%token <str> T_STRING "character constant" T_LOGICAL "logical constant"
%token <str> T_LABEL "statement label"
%token T_EOS "end of statement" T_DIRECTIVE "!HPF$" T_KINDLP "kind selector ("
%token T_POW "**" T_CONCAT "//" T_DCOLON "::" T_LCTOR "(/" T_RCTOR "/)" T_ARROW "=>"
%token T_EQ "==" T_NE "/=" T_LT "<" T_LE "<=" T_GT ">" T_GE ">="
%token T_AND ".and." T_OR ".or." T_NOT ".not." T_EQV ".eqv." T_NEQV ".neqv."

%token KW_PROGRAM "PROGRAM" KW_SUBROUTINE "SUBROUTINE" KW_FUNCTION "FUNCTION"
%token KW_RESULT "RESULT" KW_END "END" KW_CONTAINS "CONTAINS" KW_MODULE "MODULE"
%token KW_IMPLICIT "IMPLICIT" KW_NONE "NONE"
%token KW_INTEGER "INTEGER" KW_REAL "REAL" KW_DOUBLE "DOUBLE PRECISION"
%token KW_LOGICAL "LOGICAL" KW_COMPLEX "COMPLEX" KW_CHARACTER "CHARACTER"
%token KW_PARAMETER "PARAMETER" KW_DIMENSION "DIMENSION" KW_ALLOCATABLE "ALLOCATABLE"
%token KW_INTENT "INTENT" KW_SAVE "SAVE" KW_EXTERNAL "EXTERNAL" KW_INTRINSIC "INTRINSIC"
%token KW_OPTIONAL "OPTIONAL" KW_PUBLIC "PUBLIC" KW_PRIVATE "PRIVATE"
%token KW_COMMON "COMMON"
%token KW_IF "IF" KW_THEN "THEN" KW_ELSE "ELSE" KW_DO "DO" KW_WHILE "WHILE"
%token KW_CONTINUE "CONTINUE" KW_CYCLE "CYCLE" KW_EXIT "EXIT" KW_GOTO "GOTO"
%token KW_STOP "STOP" KW_RETURN "RETURN" KW_CALL "CALL"
%token KW_PRINT "PRINT" KW_WRITE "WRITE" KW_READ "READ" KW_OPEN "OPEN" KW_CLOSE "CLOSE"
%token KW_FORALL "FORALL" KW_WHERE "WHERE"
%token KW_ALLOCATE "ALLOCATE" KW_DEALLOCATE "DEALLOCATE"
%token KW_PROCESSORS "PROCESSORS" KW_TEMPLATE "TEMPLATE" KW_DISTRIBUTE "DISTRIBUTE"
%token KW_ALIGN "ALIGN" KW_WITH "WITH" KW_ONTO "ONTO" KW_INDEPENDENT "INDEPENDENT"
%token KW_DYNAMIC "DYNAMIC" KW_REDISTRIBUTE "REDISTRIBUTE" KW_REALIGN "REALIGN"
%token KW_INHERIT "INHERIT"
%token KW_SELECT "SELECT" KW_CASE "CASE" KW_DEFAULT "DEFAULT"
%token KW_NEW "NEW"

%type <node> expr primary ref arg ctl_item sect opt_expr pitem entity dim attr
%type <node> action_stmt assignment variable io_fmt dist align_src align_tgt
%type <node> forall_head do_head stop_code implicit_rule decl_stmt dir_entity
%type <vec> args arg_list pitems entities dims attrs attr_part name_list
%type <vec> dummy_args func_args ctl_list out_list out_list_opt forall_items dist_list
%type <vec> align_src_list align_tgt_list align_tgt_opt implicit_rules dir_entities alignees
%type <vec> letter_ranges common_list case_list goto_list
%type <spec> type_spec kind_sel char_sel implicit_type
%type <ival> end_what type_word
%type <str> name_opt result_opt onto_opt

%left T_EQV T_NEQV
%left T_OR
%left T_AND
%precedence T_NOT
%nonassoc T_EQ T_NE T_LT T_LE T_GT T_GE
%left T_CONCAT
%left '+' '-'
%precedence UMINUS
%left '*' '/'
%right T_POW

%%

file:
    %empty
  | file line
  ;

line:
    label_opt stmt T_EOS        { p->label = 0; }
  | T_DIRECTIVE directive T_EOS { p->label = 0; }
  | error T_EOS                 { yyerrok; p->label = 0; }
  ;

label_opt:
    %empty                      { p->label = 0; }
  | T_LABEL                     { p->label = label_value(p, $1, @1); }
  ;

stmt:
    KW_PROGRAM T_NAME           { Token t = {T_NAME, @2, $2};
                                  bld_unit(p, UNIT_PROGRAM, t, empty, NULL, NULL, @$); }
  | KW_MODULE T_NAME            { Token t = {T_NAME, @2, $2};
                                  bld_unit(p, UNIT_MODULE, t, empty, NULL, NULL, @$); }
  | KW_SUBROUTINE T_NAME dummy_args
                                { Token t = {T_NAME, @2, $2};
                                  bld_unit(p, UNIT_SUBROUTINE, t, $3, NULL, NULL, @$); }
  | KW_FUNCTION T_NAME func_args result_opt
                                { Token t = {T_NAME, @2, $2};
                                  bld_unit(p, UNIT_FUNCTION, t, $3, $4, NULL, @$); }
  | type_spec KW_FUNCTION T_NAME func_args result_opt
                                { Token t = {T_NAME, @3, $3};
                                  bld_unit(p, UNIT_FUNCTION, t, $4, $5, $1, @$); }
  | KW_END end_what name_opt    { bld_end(p, $2, $3, @$); }
  | KW_CONTAINS                 { bld_contains(p, @$); }
  | decl_stmt                   { bld_add(p, $1); }
  | KW_IF '(' expr ')' KW_THEN  { Node *n = mk_expr(p, AST_IF, @$);
                                  Node *b = mk_expr(p, AST_IF_BRANCH, @$);
                                  b->u.branch.cond = $3;
                                  vec_push(p->arena, &n->u.cond.branches, b);
                                  bld_open(p, n); }
  | KW_ELSE KW_IF '(' expr ')' KW_THEN
                                { bld_else(p, AST_IF_BRANCH, $4, @$); }
  | KW_ELSE                     { bld_else(p, AST_IF_BRANCH, NULL, @$); }
  | KW_SELECT KW_CASE '(' expr ')'
                                { bld_select(p, $4, @$); }
  | KW_CASE '(' case_list ')'   { bld_case(p, $3, 0, @$); }
  | KW_CASE KW_DEFAULT          { bld_case(p, empty, 1, @$); }
  | KW_DO                       { bld_open(p, loop_stmt(p, 0, NULL, @$)); }
  | KW_DO T_INT                 { bld_open(p, loop_stmt(p, label_value(p, $2, @2), NULL, @$)); }
  | KW_DO do_head               { bld_open(p, loop_stmt(p, 0, $2, @$)); }
  | KW_DO T_INT do_head         { bld_open(p, loop_stmt(p, label_value(p, $2, @2), $3, @$)); }
  | KW_DO T_INT ',' do_head     { bld_open(p, loop_stmt(p, label_value(p, $2, @2), $4, @$)); }
  | KW_FORALL forall_head       { $2->loc = @$; $2->u.forall.construct = 1; bld_open(p, $2); }
  | KW_WHERE '(' expr ')'       { Node *n = mk_expr(p, AST_WHERE, @$);
                                  Node *b = mk_expr(p, AST_WHERE_BRANCH, @$);
                                  b->u.branch.cond = $3;
                                  vec_push(p->arena, &n->u.cond.branches, b);
                                  bld_open(p, n); }
  | KW_ELSE KW_WHERE            { bld_else(p, AST_WHERE_BRANCH, NULL, @$); }
  | KW_ELSE KW_WHERE '(' expr ')'
                                { bld_else(p, AST_WHERE_BRANCH, $4, @$); }
  | action_stmt                 { bld_add(p, $1); }
  | KW_IF '(' expr ')' T_INT ',' T_INT ',' T_INT
                                { PtrVec g = one(p, goto_node(p, $5, @5));
                                  g = more(p, g, goto_node(p, $7, @7));
                                  g = more(p, g, goto_node(p, $9, @9));
                                  bld_add(p, jump_if(p, 1, $3, g, @$)); }
  | KW_GOTO '(' goto_list ')' expr
                                { bld_add(p, jump_if(p, 2, $5, $3, @$)); }
  | KW_GOTO '(' goto_list ')' ',' expr
                                { bld_add(p, jump_if(p, 2, $6, $3, @$)); }
  ;

end_what:
    %empty                      { $$ = 0; }
  | KW_PROGRAM                  { $$ = KW_PROGRAM; }
  | KW_SUBROUTINE               { $$ = KW_SUBROUTINE; }
  | KW_FUNCTION                 { $$ = KW_FUNCTION; }
  | KW_MODULE                   { $$ = KW_MODULE; }
  | KW_DO                       { $$ = KW_DO; }
  | KW_IF                       { $$ = KW_IF; }
  | KW_FORALL                   { $$ = KW_FORALL; }
  | KW_WHERE                    { $$ = KW_WHERE; }
  | KW_SELECT                   { $$ = KW_SELECT; }
  ;

goto_list:
    T_INT                       { $$ = one(p, goto_node(p, $1, @1)); }
  | goto_list ',' T_INT         { $$ = more(p, $1, goto_node(p, $3, @3)); }
  ;

/* R813 case-value-range-list: values and lo:, :hi, lo:hi ranges */
case_list:
    arg                         { $$ = one(p, $1); }
  | case_list ',' arg           { $$ = more(p, $1, $3); }
  ;

name_opt:
    %empty                      { $$ = NULL; }
  | T_NAME
  ;

result_opt:
    %empty                      { $$ = NULL; }
  | KW_RESULT '(' T_NAME ')'    { $$ = $3; }
  ;

dummy_args:
    %empty                      { $$ = empty; }
  | '(' ')'                     { $$ = empty; }
  | '(' name_list ')'           { $$ = $2; }
  ;

func_args:
    '(' ')'                     { $$ = empty; }
  | '(' name_list ')'           { $$ = $2; }
  ;

name_list:
    T_NAME                      { $$ = one(p, named(p, AST_NAME, $1, @1)); }
  | name_list ',' T_NAME        { $$ = more(p, $1, named(p, AST_NAME, $3, @3)); }
  ;

/* R501 type declaration statement */
decl_stmt:
    type_spec attr_part entities
                                { $$ = mk_expr(p, AST_TYPE_DECL, @$);
                                  $$->u.decl.spec = *$1;
                                  $$->u.decl.attrs = $2;
                                  $$->u.decl.entities = $3;
                                  $$->u.decl.colons = $2.n > 0 || @2.line != @1.line
                                                      || @2.col != @1.col; }
  | KW_IMPLICIT KW_NONE         { $$ = mk_expr(p, AST_IMPLICIT, @$); $$->u.implicit.none = 1; }
  | KW_IMPLICIT implicit_rules  { $$ = mk_expr(p, AST_IMPLICIT, @$); $$->u.implicit.rules = $2; }
  | KW_PARAMETER '(' entities ')'
                                { $$ = list_node(p, AST_PARAMETER_STMT, $3, @$); }
  | KW_DIMENSION entities       { $$ = list_node(p, AST_DIMENSION_STMT, $2, @$); }
  | KW_DIMENSION T_DCOLON entities
                                { $$ = list_node(p, AST_DIMENSION_STMT, $3, @$); }
  | KW_ALLOCATABLE entities     { $$ = list_node(p, AST_ALLOCATABLE_STMT, $2, @$); }
  | KW_ALLOCATABLE T_DCOLON entities
                                { $$ = list_node(p, AST_ALLOCATABLE_STMT, $3, @$); }
  | KW_SAVE                     { $$ = list_node(p, AST_SAVE_STMT, empty, @$); }
  | KW_SAVE name_list           { $$ = list_node(p, AST_SAVE_STMT, $2, @$); }
  | KW_SAVE T_DCOLON name_list  { $$ = list_node(p, AST_SAVE_STMT, $3, @$); }
  | KW_PUBLIC                   { $$ = list_node(p, AST_PUBLIC_STMT, empty, @$); }
  | KW_PUBLIC name_list         { $$ = list_node(p, AST_PUBLIC_STMT, $2, @$); }
  | KW_PUBLIC T_DCOLON name_list
                                { $$ = list_node(p, AST_PUBLIC_STMT, $3, @$); }
  | KW_PRIVATE                  { $$ = list_node(p, AST_PRIVATE_STMT, empty, @$); }
  | KW_PRIVATE name_list        { $$ = list_node(p, AST_PRIVATE_STMT, $2, @$); }
  | KW_PRIVATE T_DCOLON name_list
                                { $$ = list_node(p, AST_PRIVATE_STMT, $3, @$); }
  | KW_EXTERNAL name_list       { $$ = list_node(p, AST_EXTERNAL_STMT, $2, @$); }
  | KW_EXTERNAL T_DCOLON name_list
                                { $$ = list_node(p, AST_EXTERNAL_STMT, $3, @$); }
  | KW_INTRINSIC name_list      { $$ = list_node(p, AST_INTRINSIC_STMT, $2, @$); }
  | KW_INTRINSIC T_DCOLON name_list
                                { $$ = list_node(p, AST_INTRINSIC_STMT, $3, @$); }
  | KW_COMMON common_list       { $$ = list_node(p, AST_COMMON_STMT, $2, @$); }
  | KW_COMMON T_CONCAT common_list
                                { $$ = list_node(p, AST_COMMON_STMT, $3, @$); }
  | KW_COMMON '/' T_NAME '/' common_list
                                { $$ = list_node(p, AST_COMMON_STMT, $5, @$);
                                  $$->u.list.name = $3; }
  ;

common_list:
    entity                      { $$ = one(p, $1); }
  | common_list ',' entity      { $$ = more(p, $1, $3); }
  ;

implicit_rules:
    implicit_rule               { $$ = one(p, $1); }
  | implicit_rules ',' implicit_rule
                                { $$ = more(p, $1, $3); }
  ;

implicit_rule:
    implicit_type '(' letter_ranges ')'
                                { $$ = mk_expr(p, AST_IMPLICIT_RULE, @$);
                                  $$->u.irule.spec = *$1;
                                  for (int i = 0; i < $3.n; i++) {
                                      Node *r = $3.v[i];
                                      const char *a = r->u.triplet.lo->u.name.id;
                                      const char *b = r->u.triplet.hi ? r->u.triplet.hi->u.name.id : a;
                                      if (a[1] || b[1] || a[0] > b[0])
                                          parse_error(p, r->loc, "letter range expected, like A-H");
                                      else
                                          for (int c = a[0]; c <= b[0]; c++)
                                              $$->u.irule.letters[c - 'a'] = 1;
                                  } }
  ;

letter_ranges:
    T_NAME                      { Node *r = mk_expr(p, AST_TRIPLET, @1);
                                  r->u.triplet.lo = named(p, AST_NAME, $1, @1);
                                  $$ = one(p, r); }
  | T_NAME '-' T_NAME           { Node *r = mk_expr(p, AST_TRIPLET, @$);
                                  r->u.triplet.lo = named(p, AST_NAME, $1, @1);
                                  r->u.triplet.hi = named(p, AST_NAME, $3, @3);
                                  $$ = one(p, r); }
  | letter_ranges ',' T_NAME    { Node *r = mk_expr(p, AST_TRIPLET, @3);
                                  r->u.triplet.lo = named(p, AST_NAME, $3, @3);
                                  $$ = more(p, $1, r); }
  | letter_ranges ',' T_NAME '-' T_NAME
                                { Node *r = mk_expr(p, AST_TRIPLET, @3);
                                  r->u.triplet.lo = named(p, AST_NAME, $3, @3);
                                  r->u.triplet.hi = named(p, AST_NAME, $5, @5);
                                  $$ = more(p, $1, r); }
  ;

/* In IMPLICIT, "REAL (A-H)" and "REAL(8) (A-H)" differ only after the
 * first parentheses; the filter marks a kind selector's '(' as T_KINDLP. */
implicit_type:
    type_word                   { $$ = spec(p, $1 == TY_NONE ? TY_REAL : $1, NULL, NULL, 0, @$);
                                  $$->dbl = $1 == TY_NONE; }
  | type_word T_KINDLP expr ')' { $$ = spec(p, $1, NULL, NULL, 0, @$);
                                  if ($1 == TY_CHARACTER) $$->len = $3; else $$->kind = $3; }
  | type_word T_KINDLP T_NAME '=' expr ')'
                                { $$ = spec(p, $1, NULL, NULL, 0, @$);
                                  if ($1 == TY_CHARACTER) $$->len = $5; else $$->kind = $5; }
  | type_word '*' T_INT         { $$ = spec(p, $1, NULL, NULL, atoi($3), @$); }
  ;

type_word:
    KW_INTEGER                  { $$ = TY_INTEGER; }
  | KW_REAL                     { $$ = TY_REAL; }
  | KW_DOUBLE                   { $$ = TY_NONE; }
  | KW_LOGICAL                  { $$ = TY_LOGICAL; }
  | KW_COMPLEX                  { $$ = TY_COMPLEX; }
  | KW_CHARACTER                { $$ = TY_CHARACTER; }
  ;

/* R502 type specifier */
type_spec:
    KW_INTEGER kind_sel         { $$ = $2; $$->base = TY_INTEGER; $$->loc = @$; }
  | KW_REAL kind_sel            { $$ = $2; $$->base = TY_REAL; $$->loc = @$; }
  | KW_DOUBLE                   { $$ = spec(p, TY_REAL, NULL, NULL, 0, @$); $$->dbl = 1; }
  | KW_LOGICAL kind_sel         { $$ = $2; $$->base = TY_LOGICAL; $$->loc = @$; }
  | KW_COMPLEX kind_sel         { $$ = $2; $$->base = TY_COMPLEX; $$->loc = @$; }
  | KW_CHARACTER char_sel       { $$ = $2; $$->base = TY_CHARACTER; $$->loc = @$; }
  ;

kind_sel:
    %empty                      { $$ = spec(p, TY_NONE, NULL, NULL, 0, @$); }
  | '(' expr ')'                { $$ = spec(p, TY_NONE, $2, NULL, 0, @$); }
  | '(' T_NAME '=' expr ')'     { if (strcmp($2, "kind"))
                                      parse_error(p, @2, "KIND= expected in a type selector");
                                  $$ = spec(p, TY_NONE, $4, NULL, 0, @$); }
  | '*' T_INT                   { $$ = spec(p, TY_NONE, NULL, NULL, atoi($2), @$); }
  ;

char_sel:
    %empty                      { $$ = spec(p, TY_NONE, NULL, NULL, 0, @$); }
  | '(' expr ')'                { $$ = spec(p, TY_NONE, NULL, $2, 0, @$); }
  | '(' '*' ')'                 { $$ = spec(p, TY_NONE, NULL, mk_expr(p, AST_STAR, @2), 0, @$); }
  | '(' T_NAME '=' expr ')'     { if (strcmp($2, "len"))
                                      parse_error(p, @2, "LEN= expected in a CHARACTER selector");
                                  $$ = spec(p, TY_NONE, NULL, $4, 0, @$); }
  | '(' T_NAME '=' '*' ')'      { if (strcmp($2, "len"))
                                      parse_error(p, @2, "LEN= expected in a CHARACTER selector");
                                  $$ = spec(p, TY_NONE, NULL, mk_expr(p, AST_STAR, @4), 0, @$); }
  | '*' T_INT                   { $$ = spec(p, TY_NONE, NULL, konst(p, AST_INT_CONST, $2, @2), 0, @$);
                                  $$->star = 1; }
  | '*' '(' '*' ')'             { $$ = spec(p, TY_NONE, NULL, mk_expr(p, AST_STAR, @3), 0, @$);
                                  $$->star = 1; }
  ;

attr_part:
    %empty                      { $$ = empty; }
  | T_DCOLON                    { $$ = empty; }
  | attrs T_DCOLON              { $$ = $1; }
  ;

attrs:
    ',' attr                    { $$ = one(p, $2); }
  | attrs ',' attr              { $$ = more(p, $1, $3); }
  ;

attr:
    KW_PARAMETER                { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_PARAMETER; }
  | KW_DIMENSION '(' dims ')'   { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_DIMENSION;
                                  $$->u.attr.dims = $3; }
  | KW_ALLOCATABLE              { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_ALLOCATABLE; }
  | KW_INTENT '(' T_NAME ')'    { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_INTENT;
                                  if (!strcmp($3, "in")) $$->u.attr.intent = INTENT_IN;
                                  else if (!strcmp($3, "out")) $$->u.attr.intent = INTENT_OUT;
                                  else if (!strcmp($3, "inout")) $$->u.attr.intent = INTENT_INOUT;
                                  else parse_error(p, @3, "IN, OUT or INOUT expected in INTENT"); }
  | KW_SAVE                     { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_SAVE; }
  | KW_EXTERNAL                 { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_EXTERNAL; }
  | KW_INTRINSIC                { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_INTRINSIC; }
  | KW_OPTIONAL                 { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_OPTIONAL; }
  | KW_PUBLIC                   { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_PUBLIC; }
  | KW_PRIVATE                  { $$ = mk_expr(p, AST_ATTR, @$); $$->u.attr.which = ATTR_PRIVATE; }
  ;

entities:
    entity                      { $$ = one(p, $1); }
  | entities ',' entity         { $$ = more(p, $1, $3); }
  ;

entity:
    T_NAME                      { $$ = named(p, AST_ENTITY, $1, @$); }
  | T_NAME '(' dims ')'         { $$ = named(p, AST_ENTITY, $1, @$); $$->u.entity.dims = $3; }
  | T_NAME '*' T_INT            { $$ = named(p, AST_ENTITY, $1, @$);
                                  $$->u.entity.len = konst(p, AST_INT_CONST, $3, @3); }
  | T_NAME '=' expr             { $$ = named(p, AST_ENTITY, $1, @$); $$->u.entity.init = $3; }
  | T_NAME '(' dims ')' '=' expr
                                { $$ = named(p, AST_ENTITY, $1, @$); $$->u.entity.dims = $3;
                                  $$->u.entity.init = $6; }
  ;

dims:
    dim                         { $$ = one(p, $1); }
  | dims ',' dim                { $$ = more(p, $1, $3); }
  ;

dim:
    expr                        { $$ = mk_expr(p, AST_DIM, @$); $$->u.dim.hi = $1; }
  | expr ':' expr               { $$ = mk_expr(p, AST_DIM, @$); $$->u.dim.lo = $1; $$->u.dim.hi = $3; }
  | ':'                         { $$ = mk_expr(p, AST_DIM, @$); $$->u.dim.form = DIM_DEFERRED; }
  | expr ':'                    { $$ = mk_expr(p, AST_DIM, @$); $$->u.dim.form = DIM_DEFERRED;
                                  $$->u.dim.lo = $1; }
  | '*'                         { $$ = mk_expr(p, AST_DIM, @$); $$->u.dim.form = DIM_ASSUMED_SIZE; }
  | expr ':' '*'                { $$ = mk_expr(p, AST_DIM, @$); $$->u.dim.form = DIM_ASSUMED_SIZE;
                                  $$->u.dim.lo = $1; }
  ;

/* Statements that may also follow a logical IF (R807 action statement). */
action_stmt:
    assignment
  | KW_IF '(' expr ')' action_stmt
                                { $$ = mk_expr(p, AST_LOGICAL_IF, @$);
                                  $$->u.lif.cond = $3; $$->u.lif.stmt = $5;
                                  if ($5->kind == AST_LOGICAL_IF)
                                      parse_error(p, @5, "a logical IF cannot contain another IF"); }
  | KW_FORALL forall_head assignment
                                { $$ = $2; $$->loc = @$; vec_push(p->arena, &$$->u.forall.body, $3); }
  | KW_WHERE '(' expr ')' assignment
                                { $$ = mk_expr(p, AST_WHERE, @$);
                                  Node *b = mk_expr(p, AST_WHERE_BRANCH, @$);
                                  b->u.branch.cond = $3;
                                  vec_push(p->arena, &b->u.branch.body, $5);
                                  vec_push(p->arena, &$$->u.cond.branches, b); }
  | KW_CALL T_NAME              { $$ = named(p, AST_CALL, $2, @$); }
  | KW_CALL T_NAME '(' args ')' { $$ = named(p, AST_CALL, $2, @$); $$->u.ref.args = $4; }
  | KW_GOTO T_INT               { $$ = mk_expr(p, AST_GOTO, @$);
                                  $$->u.jump.target = label_value(p, $2, @2); }
  | KW_CONTINUE                 { $$ = mk_expr(p, AST_CONTINUE, @$); }
  | KW_CYCLE                    { $$ = mk_expr(p, AST_CYCLE, @$); }
  | KW_EXIT                     { $$ = mk_expr(p, AST_EXIT, @$); }
  | KW_RETURN                   { $$ = mk_expr(p, AST_RETURN, @$); }
  | KW_STOP stop_code           { $$ = mk_expr(p, AST_STOP, @$); $$->u.unary.operand = $2; }
  | KW_PRINT io_fmt             { $$ = io_stmt(p, AST_PRINT, $2, empty, empty, @$); }
  | KW_PRINT io_fmt ',' out_list
                                { $$ = io_stmt(p, AST_PRINT, $2, empty, $4, @$); }
  | KW_WRITE '(' ctl_list ')' out_list_opt
                                { $$ = io_stmt(p, AST_WRITE, NULL, $3, $5, @$); }
  | KW_READ '(' ctl_list ')' out_list_opt
                                { $$ = io_stmt(p, AST_READ, NULL, $3, $5, @$); }
  | KW_READ io_fmt              { $$ = io_stmt(p, AST_READ, $2, empty, empty, @$); }
  | KW_READ io_fmt ',' out_list { $$ = io_stmt(p, AST_READ, $2, empty, $4, @$); }
  | KW_OPEN '(' ctl_list ')'    { $$ = io_stmt(p, AST_OPEN, NULL, $3, empty, @$); }
  | KW_CLOSE '(' ctl_list ')'   { $$ = io_stmt(p, AST_CLOSE, NULL, $3, empty, @$); }
  | KW_ALLOCATE '(' args ')'    { $$ = mk_expr(p, AST_ALLOCATE, @$); $$->u.alloc.items = $3; }
  | KW_DEALLOCATE '(' args ')'  { $$ = mk_expr(p, AST_DEALLOCATE, @$); $$->u.alloc.items = $3; }
  ;

stop_code:
    %empty                      { $$ = NULL; }
  | T_INT                       { $$ = konst(p, AST_INT_CONST, $1, @1); }
  | T_STRING                    { $$ = konst(p, AST_STRING_CONST, $1, @1); }
  ;

assignment:
    variable '=' expr           { $$ = mk_expr(p, AST_ASSIGN, @$);
                                  $$->u.assign.lhs = $1; $$->u.assign.rhs = $3; }
  ;

variable:
    T_NAME                      { $$ = named(p, AST_NAME, $1, @$); }
  | T_NAME '(' args ')'         { $$ = named(p, AST_REF, $1, @$); $$->u.ref.args = $3; }
  ;

/* R1218 DO statement */
do_head:
    T_NAME '=' expr ',' expr    { $$ = mk_expr(p, AST_DO, @$);
                                  $$->u.loop.var = named(p, AST_NAME, $1, @1);
                                  $$->u.loop.lo = $3; $$->u.loop.hi = $5; }
  | T_NAME '=' expr ',' expr ',' expr
                                { $$ = mk_expr(p, AST_DO, @$);
                                  $$->u.loop.var = named(p, AST_NAME, $1, @1);
                                  $$->u.loop.lo = $3; $$->u.loop.hi = $5; $$->u.loop.step = $7; }
  | KW_WHILE '(' expr ')'       { $$ = mk_expr(p, AST_DO_WHILE, @$); $$->u.loop.cond = $3; }
  ;

/* FORALL (index = lo:hi[:stride], ... [, mask]) */
forall_head:
    '(' forall_items ')'        { $$ = mk_expr(p, AST_FORALL, @$);
                                  for (int i = 0; i < $2.n; i++) {
                                      Node *it = $2.v[i];
                                      if (it->kind == AST_FORALL_INDEX)
                                          vec_push(p->arena, &$$->u.forall.indices, it);
                                      else if (i == $2.n - 1 && $$->u.forall.indices.n)
                                          $$->u.forall.mask = it;
                                      else
                                          parse_error(p, it->loc, "FORALL index triplet "
                                                      "'name = lower:upper[:stride]' expected");
                                  } }
  ;

forall_items:
    T_NAME '=' expr ':' expr    { Node *f = named(p, AST_FORALL_INDEX, $1, @$);
                                  f->u.findex.lo = $3; f->u.findex.hi = $5; $$ = one(p, f); }
  | T_NAME '=' expr ':' expr ':' expr
                                { Node *f = named(p, AST_FORALL_INDEX, $1, @$);
                                  f->u.findex.lo = $3; f->u.findex.hi = $5;
                                  f->u.findex.stride = $7; $$ = one(p, f); }
  | forall_items ',' T_NAME '=' expr ':' expr
                                { Node *f = named(p, AST_FORALL_INDEX, $3, loc_span(@3, @7));
                                  f->u.findex.lo = $5; f->u.findex.hi = $7; $$ = more(p, $1, f); }
  | forall_items ',' T_NAME '=' expr ':' expr ':' expr
                                { Node *f = named(p, AST_FORALL_INDEX, $3, loc_span(@3, @9));
                                  f->u.findex.lo = $5; f->u.findex.hi = $7;
                                  f->u.findex.stride = $9; $$ = more(p, $1, f); }
  | forall_items ',' expr       { $$ = more(p, $1, $3); }
  ;

/* I/O */
io_fmt:
    '*'                         { $$ = mk_expr(p, AST_STAR, @$); }
  | T_INT                       { $$ = konst(p, AST_INT_CONST, $1, @1); }
  | T_STRING                    { $$ = konst(p, AST_STRING_CONST, $1, @1); }
  | T_NAME                      { $$ = named(p, AST_NAME, $1, @1); }
  ;

ctl_list:
    ctl_item                    { $$ = one(p, $1); }
  | ctl_list ',' ctl_item       { $$ = more(p, $1, $3); }
  ;

ctl_item:
    expr
  | '*'                         { $$ = mk_expr(p, AST_STAR, @$); }
  | T_NAME '=' expr             { $$ = mk_expr(p, AST_KEYWORD_ARG, @$); $$->u.kwarg.id = $1;
                                  $$->u.kwarg.id_loc = @1; $$->u.kwarg.value = $3; }
  | T_NAME '=' '*'              { $$ = mk_expr(p, AST_KEYWORD_ARG, @$); $$->u.kwarg.id = $1;
                                  $$->u.kwarg.id_loc = @1; $$->u.kwarg.value = mk_expr(p, AST_STAR, @3); }
  ;

out_list_opt:
    %empty                      { $$ = empty; }
  | out_list
  ;

out_list:
    expr                        { $$ = one(p, $1); }
  | out_list ',' expr           { $$ = more(p, $1, $3); }
  ;

/* Expressions (R701-R723): precedence from the declarations above. */
expr:
    primary
  | expr '+' expr               { $$ = binop(p, OP_ADD, $1, $3, @$); }
  | expr '-' expr               { $$ = binop(p, OP_SUB, $1, $3, @$); }
  | expr '*' expr               { $$ = binop(p, OP_MUL, $1, $3, @$); }
  | expr '/' expr               { $$ = binop(p, OP_DIV, $1, $3, @$); }
  | expr T_POW expr             { $$ = binop(p, OP_POW, $1, $3, @$); }
  | expr T_CONCAT expr          { $$ = binop(p, OP_CONCAT, $1, $3, @$); }
  | expr T_EQ expr              { $$ = binop(p, OP_EQ, $1, $3, @$); }
  | expr T_NE expr              { $$ = binop(p, OP_NE, $1, $3, @$); }
  | expr T_LT expr              { $$ = binop(p, OP_LT, $1, $3, @$); }
  | expr T_LE expr              { $$ = binop(p, OP_LE, $1, $3, @$); }
  | expr T_GT expr              { $$ = binop(p, OP_GT, $1, $3, @$); }
  | expr T_GE expr              { $$ = binop(p, OP_GE, $1, $3, @$); }
  | expr T_AND expr             { $$ = binop(p, OP_AND, $1, $3, @$); }
  | expr T_OR expr              { $$ = binop(p, OP_OR, $1, $3, @$); }
  | expr T_EQV expr             { $$ = binop(p, OP_EQV, $1, $3, @$); }
  | expr T_NEQV expr            { $$ = binop(p, OP_NEQV, $1, $3, @$); }
  | T_NOT expr                  { $$ = unop(p, AST_UNARY, OP_NOT, $2, @$); }
  | '-' expr %prec UMINUS       { $$ = unop(p, AST_UNARY, OP_NEG, $2, @$); }
  | '+' expr %prec UMINUS       { $$ = unop(p, AST_UNARY, OP_PLUS, $2, @$); }
  ;

primary:
    T_INT                       { $$ = konst(p, AST_INT_CONST, $1, @1); }
  | T_REAL                      { $$ = konst(p, AST_REAL_CONST, $1, @1); }
  | T_STRING                    { $$ = konst(p, AST_STRING_CONST, $1, @1); }
  | T_LOGICAL                   { $$ = konst(p, AST_LOGICAL_CONST, $1, @1); }
  | ref
  | '(' pitems ')'              { $$ = paren_list(p, $2, @$); }
  | T_LCTOR pitems T_RCTOR      { $$ = list_node(p, AST_ARRAY_CTOR, $2, @$);
                                  for (int i = 0; i < $2.n; i++)
                                      if (((Node *)$2.v[i])->kind == AST_KEYWORD_ARG)
                                          parse_error(p, ((Node *)$2.v[i])->loc,
                                                      "implied-DO expected: (items, v = lo, hi)");
                                  $$->depth = 1;
                                  for (int i = 0; i < $2.n; i++)
                                      if (((Node *)$2.v[i])->depth >= $$->depth)
                                          $$->depth = ((Node *)$2.v[i])->depth + 1; }
  ;

ref:
    T_NAME                      { $$ = named(p, AST_NAME, $1, @$); }
  | T_NAME '(' args ')'         { $$ = named(p, AST_REF, $1, @$); $$->u.ref.args = $3;
                                  for (int i = 0; i < $3.n; i++)
                                      if (((Node *)$3.v[i])->depth >= $$->depth)
                                          $$->depth = ((Node *)$3.v[i])->depth + 1; }
  ;

args:
    %empty                      { $$ = empty; }
  | arg_list
  ;

arg_list:
    arg                         { $$ = one(p, $1); }
  | arg_list ',' arg            { $$ = more(p, $1, $3); }
  ;

arg:
    expr
  | sect
  | T_NAME '=' expr             { $$ = mk_expr(p, AST_KEYWORD_ARG, @$); $$->u.kwarg.id = $1;
                                  $$->u.kwarg.id_loc = @1; $$->u.kwarg.value = $3;
                                  $$->depth = $3->depth + 1; }
  ;

/* R619 subscript triplet */
sect:
    opt_expr ':' opt_expr       { $$ = mk_expr(p, AST_TRIPLET, @$);
                                  $$->u.triplet.lo = $1; $$->u.triplet.hi = $3; }
  | opt_expr ':' opt_expr ':' expr
                                { $$ = mk_expr(p, AST_TRIPLET, @$);
                                  $$->u.triplet.lo = $1; $$->u.triplet.hi = $3;
                                  $$->u.triplet.stride = $5; }
  | opt_expr T_DCOLON expr      { /* a(1::2): the scanner saw '::' */
                                  $$ = mk_expr(p, AST_TRIPLET, @$);
                                  $$->u.triplet.lo = $1; $$->u.triplet.stride = $3; }
  ;

opt_expr:
    %empty                      { $$ = NULL; }
  | expr
  ;

/* The insides of parentheses: an expression, a complex constant, or an
 * implied-DO (items, v = lo, hi [, step]); told apart by paren_list(). */
pitems:
    pitem                       { $$ = one(p, $1); }
  | pitems ',' pitem            { $$ = more(p, $1, $3); }
  ;

pitem:
    expr
  | T_NAME '=' expr             { $$ = mk_expr(p, AST_KEYWORD_ARG, @$); $$->u.kwarg.id = $1;
                                  $$->u.kwarg.id_loc = @1; $$->u.kwarg.value = $3;
                                  $$->depth = $3->depth + 1; }
  ;

/* HPF directives (HPF 1.0 chapter 3) */
directive:
    KW_PROCESSORS dir_entities  { bld_add(p, list_node(p, AST_PROCESSORS, $2, @$)); }
  | KW_TEMPLATE dir_entities    { bld_add(p, list_node(p, AST_TEMPLATE, $2, @$)); }
  | KW_DISTRIBUTE T_NAME '(' dist_list ')' onto_opt
                                { Node *n = mk_expr(p, AST_DISTRIBUTE, @$);
                                  n->u.dist.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.dist.formats = $4; n->u.dist.onto = $6;
                                  n->u.dist.onto_loc = @6;
                                  bld_add(p, n); }
  | KW_DISTRIBUTE T_NAME onto_opt
                                { Node *n = mk_expr(p, AST_DISTRIBUTE, @$);
                                  n->u.dist.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.dist.onto = $3; n->u.dist.onto_loc = @3;
                                  bld_add(p, n); }    /* no formats: sema's BLOCK, ... */
  | KW_DISTRIBUTE '(' dist_list ')' onto_opt T_DCOLON name_list
                                { Node *n = mk_expr(p, AST_DISTRIBUTE, @$);
                                  n->u.dist.names = $7; n->u.dist.attributed = 1;
                                  n->u.dist.formats = $3; n->u.dist.onto = $5;
                                  n->u.dist.onto_loc = @5;
                                  bld_add(p, n); }
  | KW_ALIGN T_NAME '(' align_src_list ')' KW_WITH T_NAME align_tgt_opt
                                { Node *n = mk_expr(p, AST_ALIGN, @$);
                                  n->u.align.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.align.src = $4; n->u.align.target = $7;
                                  n->u.align.target_loc = @7; n->u.align.tgt = $8;
                                  bld_add(p, n); }
  | KW_ALIGN T_NAME '(' align_src_list ')' ',' alignees KW_WITH T_NAME align_tgt_opt
                                { Node *n = mk_expr(p, AST_ALIGN, @$);
                                  n->u.align.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.align.src = $4; n->u.align.target = $9;
                                  n->u.align.target_loc = @9; n->u.align.tgt = $10;
                                  align_several(p, n, $7);
                                  bld_add(p, n); }
  | KW_ALIGN '(' align_src_list ')' KW_WITH T_NAME align_tgt_opt T_DCOLON name_list
                                { Node *n = mk_expr(p, AST_ALIGN, @$);
                                  n->u.align.names = $9; n->u.align.attributed = 1;
                                  n->u.align.src = $3; n->u.align.target = $6;
                                  n->u.align.target_loc = @6; n->u.align.tgt = $7;
                                  bld_add(p, n); }
  | KW_ALIGN KW_WITH T_NAME align_tgt_opt T_DCOLON name_list
                                { Node *n = mk_expr(p, AST_ALIGN, @$);
                                  n->u.align.names = $6; n->u.align.attributed = 1;
                                  n->u.align.target = $3; n->u.align.target_loc = @3;
                                  n->u.align.tgt = $4;    /* the source: sema's (:, ...) */
                                  bld_add(p, n); }
  | KW_DISTRIBUTE T_NAME '*' '(' dist_list ')' onto_opt
                                { Node *n = mk_expr(p, AST_DISTRIBUTE, @$);
                                  n->u.dist.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.dist.formats = $5; n->u.dist.onto = $7;
                                  n->u.dist.onto_loc = @7; n->u.dist.star = DIST_DESCRIPTIVE;
                                  bld_add(p, n); }
  | KW_DISTRIBUTE T_NAME '*'    { Node *n = mk_expr(p, AST_DISTRIBUTE, @$);
                                  n->u.dist.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.dist.star = DIST_TRANSCRIPTIVE;
                                  bld_add(p, n); }
  | KW_INHERIT name_list        { bld_add(p, list_node(p, AST_INHERIT, $2, @$)); }
  | KW_INHERIT T_DCOLON name_list
                                { bld_add(p, list_node(p, AST_INHERIT, $3, @$)); }
  | KW_DYNAMIC name_list        { bld_add(p, list_node(p, AST_DYNAMIC, $2, @$)); }
  | KW_DYNAMIC T_DCOLON name_list
                                { bld_add(p, list_node(p, AST_DYNAMIC, $3, @$)); }
  | KW_REDISTRIBUTE T_NAME '(' dist_list ')' onto_opt
                                { Node *n = mk_expr(p, AST_REDISTRIBUTE, @$);
                                  n->u.dist.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.dist.formats = $4; n->u.dist.onto = $6;
                                  n->u.dist.onto_loc = @6;
                                  bld_add(p, n); }
  | KW_REDISTRIBUTE '(' dist_list ')' onto_opt T_DCOLON name_list
                                { Node *n = mk_expr(p, AST_REDISTRIBUTE, @$);
                                  n->u.dist.names = $7; n->u.dist.attributed = 1;
                                  n->u.dist.formats = $3; n->u.dist.onto = $5;
                                  n->u.dist.onto_loc = @5;
                                  bld_add(p, n); }
  | KW_REALIGN T_NAME '(' align_src_list ')' KW_WITH T_NAME align_tgt_opt
                                { Node *n = mk_expr(p, AST_REALIGN, @$);
                                  n->u.align.names = one(p, named(p, AST_NAME, $2, @2));
                                  n->u.align.src = $4; n->u.align.target = $7;
                                  n->u.align.target_loc = @7; n->u.align.tgt = $8;
                                  bld_add(p, n); }
  | KW_REALIGN '(' align_src_list ')' KW_WITH T_NAME align_tgt_opt T_DCOLON name_list
                                { Node *n = mk_expr(p, AST_REALIGN, @$);
                                  n->u.align.names = $9; n->u.align.attributed = 1;
                                  n->u.align.src = $3; n->u.align.target = $6;
                                  n->u.align.target_loc = @6; n->u.align.tgt = $7;
                                  bld_add(p, n); }
  | KW_REALIGN KW_WITH T_NAME align_tgt_opt T_DCOLON name_list
                                { Node *n = mk_expr(p, AST_REALIGN, @$);
                                  n->u.align.names = $6; n->u.align.attributed = 1;
                                  n->u.align.target = $3; n->u.align.target_loc = @3;
                                  n->u.align.tgt = $4;
                                  bld_add(p, n); }
  | KW_INDEPENDENT              { bld_independent(p, list_node(p, AST_INDEPENDENT, empty, @$)); }
  | KW_INDEPENDENT ',' KW_NEW '(' name_list ')'
                                { bld_independent(p, list_node(p, AST_INDEPENDENT, $5, @$)); }
  | KW_INDEPENDENT ',' T_NAME '(' name_list ')'
                                { indep_clause(p, $3, @3);
                                  bld_independent(p, list_node(p, AST_INDEPENDENT, empty, @$)); }
  | KW_INDEPENDENT ',' KW_NEW '(' name_list ')' ',' T_NAME '(' name_list ')'
                                { indep_clause(p, $8, @8);
                                  bld_independent(p, list_node(p, AST_INDEPENDENT, $5, @$)); }
  | KW_INDEPENDENT '(' name_list ')'
                                { bld_independent_list(p, list_node(p, AST_INDEPENDENT, empty, @$),
                                                       $3); }
  | KW_INDEPENDENT '(' name_list ')' ',' KW_NEW '(' name_list ')'
                                { bld_independent_list(p, list_node(p, AST_INDEPENDENT, $8, @$),
                                                       $3); }
  ;

dir_entities:
    dir_entity                  { $$ = one(p, $1); }
  | dir_entities ',' dir_entity { $$ = more(p, $1, $3); }
  ;

dir_entity:
    T_NAME                      { $$ = named(p, AST_ENTITY, $1, @$); }
  | T_NAME '(' dims ')'         { $$ = named(p, AST_ENTITY, $1, @$); $$->u.entity.dims = $3; }
  ;

onto_opt:
    %empty                      { $$ = NULL; }
  | KW_ONTO T_NAME              { $$ = $2; }
  ;

dist_list:
    dist                        { $$ = one(p, $1); }
  | dist_list ',' dist          { $$ = more(p, $1, $3); }
  ;

dist:
    '*'                         { $$ = dist_format(p, "*", NULL, @$); }
  | T_NAME                      { $$ = dist_format(p, $1, NULL, @$); }
  | T_NAME '(' expr ')'         { $$ = dist_format(p, $1, $3, @$); }
  ;

/* the alignees after the first of ALIGN a(i), b(i) WITH t(i) (a dialect):
 * each an AST_ALIGN holding its name and source list */
alignees:
    T_NAME '(' align_src_list ')'
                                { Node *n = mk_expr(p, AST_ALIGN, @$);
                                  n->u.align.names = one(p, named(p, AST_NAME, $1, @1));
                                  n->u.align.src = $3; $$ = one(p, n); }
  | alignees ',' T_NAME '(' align_src_list ')'
                                { Node *n = mk_expr(p, AST_ALIGN, @3);
                                  n->u.align.names = one(p, named(p, AST_NAME, $3, @3));
                                  n->u.align.src = $5; $$ = more(p, $1, n); }
  ;

align_src_list:
    align_src                   { $$ = one(p, $1); }
  | align_src_list ',' align_src
                                { $$ = more(p, $1, $3); }
  ;

align_src:
    T_NAME                      { $$ = named(p, AST_NAME, $1, @$); }
  | '*'                         { $$ = mk_expr(p, AST_STAR, @$); }
  | ':'                         { $$ = mk_expr(p, AST_TRIPLET, @$); }
  ;

align_tgt_opt:
    %empty                      { $$ = empty; }
  | '(' align_tgt_list ')'      { $$ = $2; }
  ;

align_tgt_list:
    align_tgt                   { $$ = one(p, $1); }
  | align_tgt_list ',' align_tgt
                                { $$ = more(p, $1, $3); }
  ;

align_tgt:
    expr
  | '*'                         { $$ = mk_expr(p, AST_STAR, @$); }
  | ':'                         { $$ = mk_expr(p, AST_TRIPLET, @$); }
  ;

%%

Node *mk_expr(Parser *p, AstKind k, Loc loc)
{
    return ast_new(p->arena, k, loc);
}

void parse_error(Parser *p, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(p->diag, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

/* Bison's messages, made to read like a compiler's. */
static void hpf_error(Loc *loc, Parser *p, const char *msg)
{
    const char *m = msg;
    if (p->scan_failed)
        return;   /* the scanner already said what is wrong with this statement */
    if (strncmp(m, "syntax error, ", 14) == 0)
        m += 14;
    if (strcmp(msg, "memory exhausted") == 0)
        m = "statement too complex";
    diag_error(p->diag, *loc, "%s", m);
}

int hpf_lex(HPF_STYPE *lval, Loc *lloc, Parser *p)
{
    Token t;
    int k = filter_next(p, &t);
    lval->str = t.text;
    *lloc = t.loc;
    return k;
}

static void check_depth(Parser *p, Node *n)
{
    if (n->depth > MAX_EXPR_DEPTH && n->depth - 1 == MAX_EXPR_DEPTH)
        parse_error(p, n->loc, "expression too complex (nested more than %d deep)",
                    MAX_EXPR_DEPTH);
}

static Node *binop(Parser *p, Op op, Node *l, Node *r, Loc loc)
{
    Node *n = mk_expr(p, AST_BINARY, loc);
    n->u.binary.op = op;
    n->u.binary.lhs = l;
    n->u.binary.rhs = r;
    n->depth = 1 + (l->depth > r->depth ? l->depth : r->depth);
    check_depth(p, n);
    return n;
}

static Node *unop(Parser *p, AstKind k, Op op, Node *e, Loc loc)
{
    Node *n = mk_expr(p, k, loc);
    n->u.unary.op = op;
    n->u.unary.operand = e;
    n->depth = e->depth + 1;
    check_depth(p, n);
    return n;
}

/* A constant as the grammar makes it, for the token filter (DATA). */
Node *parse_konst(Parser *p, AstKind k, const char *text, Loc loc)
{
    return konst(p, k, text, loc);
}

/* A token's text for a diagnostic: at most 40 characters, then "...". */
static const char *clip(Parser *p, const char *text)
{
    size_t n = strlen(text);
    return n <= 40 ? text : arena_printf(p->arena, "%.40s...", text);
}

static Node *konst(Parser *p, AstKind k, const char *text, Loc loc)
{
    Node *n = mk_expr(p, k, loc);
    n->u.konst.text = text;
    const char *us = strchr(text, '_');
    if (k == AST_STRING_CONST) {
        /* the value: quotes removed, doubled quotes made single */
        size_t len = strlen(text);
        char q = text[0], *s = arena_alloc(p->arena, len + 1), *o = s;
        for (size_t i = 1; i + 1 < len || (i < len && text[i] != q); i++) {
            if (text[i] == q && text[i + 1] == q)
                i++;
            *o++ = text[i];
        }
        *o = '\0';
        n->u.konst.str = s;
        n->u.konst.kind = 1;
    } else if (k == AST_INT_CONST) {
        errno = 0;
        char *end;
        n->u.konst.ival = strtoll(text, &end, 10);
        n->u.konst.kind = us ? atoi(us + 1) : 4;
        if (errno == ERANGE)
            parse_error(p, loc, "integer constant '%s' is too large (at most %lld)",
                        clip(p, text), LLONG_MAX);
        else if (n->u.konst.kind == 4 && n->u.konst.ival > INT32_MAX)
            parse_error(p, loc, "integer constant '%s' is too large for kind 4 (at most %d; "
                        "write it with _8 for kind 8)", clip(p, text), INT32_MAX);
    } else if (k == AST_REAL_CONST) {
        size_t len = us ? (size_t)(us - text) : strlen(text);
        char *buf = arena_strndup(p->arena, text, len);
        int dbl = 0;
        for (char *c = buf; *c; c++)
            if (*c == 'd') {
                *c = 'e';
                dbl = 1;
            }
        n->u.konst.rval = strtod(buf, NULL);
        n->u.konst.kind = us ? atoi(us + 1) : dbl ? 8 : 4;
        double most = n->u.konst.kind == 4 ? FLT_MAX : DBL_MAX;
        if (!(fabs(n->u.konst.rval) <= most))
            parse_error(p, loc, "real constant '%s' is out of the range of kind %d (at most "
                        "%g)", clip(p, text), n->u.konst.kind == 4 ? 4 : 8, most);
    } else if (k == AST_LOGICAL_CONST) {
        n->u.konst.ival = text[1] == 't';
        n->u.konst.kind = 4;
    }
    /* a named kind (1.0_dp) is resolved by sema: kind 0 until then */
    if (us && k != AST_STRING_CONST && !(us[1] >= '0' && us[1] <= '9'))
        n->u.konst.kind = 0;
    else if (us && k != AST_STRING_CONST && n->u.konst.kind != 4 && n->u.konst.kind != 8)
        parse_error(p, loc, "kind parameter in '%s' must be 4 or 8", text);
    return n;
}

/* A clause of INDEPENDENT other than NEW: HPF 2.0's REDUCTION, accepted
 * with a warning (the loop's reductions run as the lowering runs them: an
 * INDEPENDENT loop assigning a scalar runs sequentially), any other refused. */
static void indep_clause(Parser *p, const char *word, Loc loc)
{
    if (strcmp(word, "reduction"))
        parse_error(p, loc, "INDEPENDENT takes NEW (HPF 1.0) or REDUCTION (HPF 2.0), not '%s'",
                    word);
    else
        diag_warning(p->diag, loc, "REDUCTION is HPF 2.0, not HPF 1.0: the variables are "
                     "reduced as the loop runs them (an INDEPENDENT loop that assigns a scalar "
                     "runs sequentially)");
}

/* ALIGN a(i), b(i) WITH t(i), a dialect: the standard attributed form
 * ALIGN (i) WITH t(i) :: a, b when every alignee has the first one's
 * source list, refused otherwise. */
static void align_several(Parser *p, Node *n, PtrVec more)
{
    const PtrVec *s0 = &n->u.align.src;
    for (int i = 0; i < more.n; i++) {
        Node *m = more.v[i];
        const PtrVec *s = &m->u.align.src;
        int same = s->n == s0->n;
        for (int k = 0; same && k < s->n; k++) {
            const Node *x = s->v[k], *y = s0->v[k];
            same = x->kind == y->kind &&
                   (x->kind != AST_NAME || !strcmp(x->u.name.id, y->u.name.id));
        }
        if (!same) {
            parse_error(p, m->loc, "ALIGN with several alignees needs the same source list for "
                        "each (write one ALIGN per array)");
            return;
        }
        vec_push(p->arena, &n->u.align.names, m->u.align.names.v[0]);
    }
    n->u.align.attributed = 1;
    diag_warning(p->diag, n->loc, "ALIGN with several alignees is not HPF 1.0: taken as the "
                 "attributed form ALIGN (...) WITH ... :: with those arrays");
}

static Node *named(Parser *p, AstKind k, const char *id, Loc loc)
{
    Node *n = mk_expr(p, k, loc);
    switch (k) {
    case AST_NAME: n->u.name.id = id; break;
    case AST_REF: case AST_CALL: n->u.ref.id = id; break;
    case AST_ENTITY: n->u.entity.id = id; break;
    case AST_FORALL_INDEX: n->u.findex.id = id; break;
    default: fatal("named(): kind %s", ast_kind_name[k]);
    }
    return n;
}

static Node *list_node(Parser *p, AstKind k, PtrVec items, Loc loc)
{
    Node *n = mk_expr(p, k, loc);
    n->u.list.items = items;
    return n;
}

/* ( e ) is a parenthesized expression, ( re, im ) a complex constant, and
 * ( items, v = lo, hi [, step] ) an implied-DO (R917, R433). */
static Node *paren_list(Parser *p, PtrVec items, Loc loc)
{
    int eq = -1;
    for (int i = 0; i < items.n; i++)
        if (((Node *)items.v[i])->kind == AST_KEYWORD_ARG) {
            eq = i;
            break;
        }
    int depth = 0;
    for (int i = 0; i < items.n; i++)
        if (((Node *)items.v[i])->depth > depth)
            depth = ((Node *)items.v[i])->depth;
    Node *n;
    if (eq < 0 && items.n == 1) {
        n = unop(p, AST_PAREN, OP_NONE, items.v[0], loc);
        return n;
    }
    if (eq < 0 && items.n == 2) {
        n = mk_expr(p, AST_COMPLEX_CONST, loc);
        n->u.binary.lhs = items.v[0];
        n->u.binary.rhs = items.v[1];
        n->depth = depth + 1;
        return n;
    }
    int nb = items.n - eq - 1;   /* bounds after the control variable's first */
    if (eq <= 0 || nb < 1 || nb > 2) {
        parse_error(p, loc, eq < 0 ? "',' inside parentheses: an implied-DO needs "
                                     "'v = lower, upper' after its items"
                                   : "implied-DO expected: (items, v = lower, upper [, step])");
        n = mk_expr(p, AST_PAREN, loc);
        n->u.unary.operand = items.v[0];
        return n;
    }
    for (int i = eq + 1; i < items.n; i++)
        if (((Node *)items.v[i])->kind == AST_KEYWORD_ARG)
            parse_error(p, ((Node *)items.v[i])->loc, "implied-DO bound expected");
    n = mk_expr(p, AST_IMPLIED_DO, loc);
    for (int i = 0; i < eq; i++)
        vec_push(p->arena, &n->u.impdo.items, items.v[i]);
    Node *kw = items.v[eq];
    n->u.impdo.var = named(p, AST_NAME, kw->u.kwarg.id, kw->u.kwarg.id_loc);
    n->u.impdo.lo = kw->u.kwarg.value;
    n->u.impdo.hi = items.v[eq + 1];
    n->u.impdo.step = nb == 2 ? items.v[eq + 2] : NULL;
    n->depth = depth + 1;
    return n;
}

static int label_value(Parser *p, const char *text, Loc loc)
{
    long v = strtol(text, NULL, 10);
    if (strlen(text) > 5 || v < 1 || v > 99999) {
        parse_error(p, loc, "statement label '%s' must have 1 to 5 digits and not be zero", text);
        return 0;
    }
    return (int)v;
}

static PtrVec one(Parser *p, Node *n)
{
    PtrVec v = {0};
    vec_push(p->arena, &v, n);
    return v;
}

static PtrVec more(Parser *p, PtrVec v, Node *n)
{
    vec_push(p->arena, &v, n);
    return v;
}

static TypeSpec *spec(Parser *p, TypeBase base, Node *kind, Node *len, int star, Loc loc)
{
    TypeSpec *s = arena_alloc(p->arena, sizeof *s);
    s->base = base;
    s->kind = kind;
    s->len = len;
    s->star = star;
    s->loc = loc;
    return s;
}

static Node *dist_format(Parser *p, const char *word, Node *arg, Loc loc)
{
    Node *n = mk_expr(p, AST_DIST_FORMAT, loc);
    n->u.distfmt.arg = arg;
    if (strcmp(word, "*") == 0)
        n->u.distfmt.fmt = DIST_STAR;
    else if (strcmp(word, "block") == 0)
        n->u.distfmt.fmt = DIST_BLOCK;
    else if (strcmp(word, "cyclic") == 0)
        n->u.distfmt.fmt = DIST_CYCLIC;
    else
        parse_error(p, loc, "distribution format BLOCK, CYCLIC or '*' expected, not '%s'", word);
    return n;
}

static Node *io_stmt(Parser *p, AstKind k, Node *fmt, PtrVec control, PtrVec items, Loc loc)
{
    Node *n = mk_expr(p, k, loc);
    n->u.io.fmt = fmt;
    n->u.io.short_form = fmt != NULL;
    n->u.io.control = control;
    n->u.io.items = items;
    return n;
}

static Node *goto_node(Parser *p, const char *label, Loc loc)
{
    Node *g = mk_expr(p, AST_GOTO, loc);
    g->u.jump.target = label_value(p, label, loc);
    return g;
}

static Node *cmp(Parser *p, Op op, Node *l, Node *r, Loc loc)
{
    Node *b = mk_expr(p, AST_BINARY, loc);
    b->u.binary.op = op;
    b->u.binary.lhs = l;
    b->u.binary.rhs = r;
    b->depth = (l->depth > r->depth ? l->depth : r->depth) + 1;
    return b;
}

/* The arithmetic IF, IF (e) l1, l2, l3 (which 1), and the computed GOTO,
 * GO TO (l1, ..., ln) k (which 2), as the block IF of GOTOs they are:
 * e < 0, e == 0, else; k == 1, ..., k == n (none: on to the next
 * statement). The IF's selector is e: sema refuses one that references a
 * function, as the IF evaluates it at each test. */
static Node *jump_if(Parser *p, int which, Node *e, PtrVec gotos, Loc loc)
{
    Node *n = mk_expr(p, AST_IF, loc);
    n->u.cond.selector = e;
    n->u.cond.jump = which;
    for (int i = 0; i < gotos.n; i++) {
        Node *g = gotos.v[i];
        Node *b = mk_expr(p, AST_IF_BRANCH, g->loc);
        char *k = arena_printf(p->arena, "%d", i + 1);
        if (which == 2)
            b->u.branch.cond = cmp(p, OP_EQ, e, konst(p, AST_INT_CONST, k, g->loc), g->loc);
        else if (i < 2)
            b->u.branch.cond = cmp(p, i ? OP_EQ : OP_LT, e,
                                   konst(p, AST_INT_CONST, "0", g->loc), g->loc);
        vec_push(p->arena, &b->u.branch.body, g);
        vec_push(p->arena, &n->u.cond.branches, b);
    }
    return n;
}

static Node *loop_stmt(Parser *p, int end_label, Node *head, Loc loc)
{
    Node *n = head ? head : mk_expr(p, AST_DO_WHILE, loc);
    n->loc = loc;
    n->u.loop.end_label = end_label;
    return n;
}
