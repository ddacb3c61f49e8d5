/*
 * A QEMU TCG plugin that records the guest addresses of the instructions one call of a
 * function executes, so that the exact instruction stream can be handed to llvm-mca.
 * Arguments: out=FILE, and symbols=A:B:... (the ELF symbol names, as the binary spells
 * them, of the function and of the functions it calls that belong to the stream). A
 * call is a maximal run of executed instructions inside those symbols; the longest run
 * of the program is written, one hexadecimal address per line, when it exits.
 *
 * Built by `cargo xtask count` with the host's C compiler; the declarations used are
 * written out from QEMU's documented plugin API (version 1), as in count.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0 };
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);

extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
extern uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
extern const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
extern void qemu_plugin_register_vcpu_tb_trans_cb(
    qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
extern void qemu_plugin_register_vcpu_tb_exec_cb(
    struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb, enum qemu_plugin_cb_flags flags, void *userdata);
extern void qemu_plugin_register_vcpu_insn_exec_cb(
    struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb, enum qemu_plugin_cb_flags flags, void *userdata);
extern void qemu_plugin_register_atexit_cb(
    qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_SYMBOLS 8

static char *out_path;
static char *symbols[MAX_SYMBOLS];
static int n_symbols;

/* The run being recorded, and the longest finished one. The programs traced are
 * single-threaded. */
struct run {
    uint64_t *at;
    size_t len, cap;
};
static struct run current, longest;

static int traced(const char *symbol) {
    for (int i = 0; symbol != NULL && i < n_symbols; i++) {
        if (strcmp(symbol, symbols[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static void on_traced_insn(unsigned int vcpu, void *userdata) {
    (void)vcpu;
    if (current.len == current.cap) {
        current.cap = current.cap ? 2 * current.cap : 4096;
        current.at = realloc(current.at, current.cap * sizeof *current.at);
        if (current.at == NULL) {
            fprintf(stderr, "trace plugin: out of memory\n");
            exit(1);
        }
    }
    current.at[current.len++] = (uint64_t)(uintptr_t)userdata;
}

static void on_other_tb(unsigned int vcpu, void *userdata) {
    (void)vcpu;
    (void)userdata;
    if (current.len > longest.len) {
        struct run t = longest;
        longest = current;
        current = t;
    }
    current.len = 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (!traced(qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, 0)))) {
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_other_tb, QEMU_PLUGIN_CB_NO_REGS, NULL);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        void *at = (void *)(uintptr_t)qemu_plugin_insn_vaddr(insn);
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_traced_insn, QEMU_PLUGIN_CB_NO_REGS, at);
    }
}

static void on_exit_(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    on_other_tb(0, NULL);
    FILE *f = fopen(out_path, "w");
    if (f == NULL) {
        fprintf(stderr, "trace plugin: cannot write %s\n", out_path);
        return;
    }
    for (size_t i = 0; i < longest.len; i++) {
        fprintf(f, "%llx\n", (unsigned long long)longest.at[i]);
    }
    fclose(f);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                                int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            out_path = strdup(argv[i] + 4);
        } else if (strncmp(argv[i], "symbols=", 8) == 0) {
            for (char *s = strtok(strdup(argv[i] + 8), ":"); s != NULL && n_symbols < MAX_SYMBOLS;
                 s = strtok(NULL, ":")) {
                symbols[n_symbols++] = s;
            }
        }
    }
    if (out_path == NULL || n_symbols == 0) {
        fprintf(stderr, "trace plugin: give out=FILE and symbols=A:B:...\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_, NULL);
    return 0;
}
