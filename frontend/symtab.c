/* symtab.c - scopes: one per program unit, a hash table of symbols with a
 * link to the host's scope for internal subprograms. */
#include <config.h>

#include <string.h>

#include "sema.h"

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

Scope *scope_new(Arena *a, Scope *parent, Node *unit)
{
    Scope *s = arena_alloc(a, sizeof *s);
    s->parent = parent;
    s->unit = unit;
    s->nbuckets = 64;
    s->buckets = arena_alloc(a, (size_t)s->nbuckets * sizeof *s->buckets);
    /* Fortran's default: I-N integer, everything else real */
    for (int c = 0; c < 26; c++)
        s->implicit[c] = (Type){c >= 'i' - 'a' && c <= 'n' - 'a' ? TY_INTEGER : TY_REAL, 4};
    return s;
}

Symbol *scope_entry(const Scope *s, const char *name)
{
    for (Symbol *y = s->buckets[hash(name) % (unsigned)s->nbuckets]; y; y = y->next)
        if (strcmp(y->name, name) == 0)
            return y;
    return NULL;
}

Symbol *scope_lookup_local(const Scope *s, const char *name)
{
    Symbol *y = scope_entry(s, name);
    return y && y->alias ? y->alias : y;
}

Symbol *scope_lookup(const Scope *s, const char *name)
{
    for (; s; s = s->parent) {
        Symbol *y = scope_lookup_local(s, name);
        if (y)
            return y;
    }
    return NULL;
}

static void grow(Arena *a, Scope *s)
{
    int n = s->nbuckets * 2;
    Symbol **b = arena_alloc(a, (size_t)n * sizeof *b);
    for (int i = 0; i < s->nbuckets; i++)
        for (Symbol *y = s->buckets[i], *next; y; y = next) {
            next = y->next;
            unsigned h = hash(y->name) % (unsigned)n;
            y->next = b[h];
            b[h] = y;
        }
    s->buckets = b;
    s->nbuckets = n;
}

static Symbol *entry_new(Arena *a, Scope *s, const char *name, SymKind kind, Node *decl)
{
    if (s->count >= s->nbuckets)
        grow(a, s);
    Symbol *y = arena_alloc(a, sizeof *y);
    y->name = name;
    y->kind = kind;
    y->decl = decl;
    unsigned h = hash(name) % (unsigned)s->nbuckets;
    y->next = s->buckets[h];
    s->buckets[h] = y;
    s->count++;
    return y;
}

Symbol *scope_add(Arena *a, Scope *s, const char *name, SymKind kind, Node *decl)
{
    Symbol *y = entry_new(a, s, name, kind, decl);
    vec_push(a, &s->symbols, y);
    return y;
}

Symbol *scope_add_alias(Arena *a, Scope *s, const char *name, Symbol *target, Node *decl)
{
    Symbol *y = entry_new(a, s, name, target->kind, decl);
    y->alias = target;
    vec_push(a, &s->aliases, y);
    return y;
}

const char *sym_kind_name(SymKind k)
{
    static const char *const names[] = {"variable", "parameter", "function", "subroutine",
                                        "program", "processors", "template", "index"};
    return names[k];
}

/* The value of an integer constant expression (literals, PARAMETERs,
 * + - * /): 1 and *v set, or 0. Shared by the lowering and the mapping
 * rewrite. */
int cint(const Node *n, long long *v)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_INT_CONST:
        *v = n->u.konst.ival;
        return 1;
    case AST_NAME: {
        Symbol *y = n->u.name.sym;
        if (y && y->kind == SYM_PARAMETER && y->value.known && y->value.type.base == TY_INTEGER) {
            *v = y->value.i;
            return 1;
        }
        return 0;
    }
    case AST_PAREN:
        return cint(n->u.unary.operand, v);
    case AST_UNARY: {
        long long a;
        if (n->u.unary.op == OP_NOT || !cint(n->u.unary.operand, &a))
            return 0;
        *v = n->u.unary.op == OP_NEG ? -a : a;
        return 1;
    }
    case AST_BINARY: {
        long long a, b;
        if (!cint(n->u.binary.lhs, &a) || !cint(n->u.binary.rhs, &b))
            return 0;
        switch (n->u.binary.op) {
        case OP_ADD: *v = a + b; return 1;
        case OP_SUB: *v = a - b; return 1;
        case OP_MUL: *v = a * b; return 1;
        case OP_DIV:
            if (!b)
                return 0;
            *v = a / b;
            return 1;
        default: return 0;
        }
    }
    default:
        return 0;
    }
}
