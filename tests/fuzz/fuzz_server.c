/* libFuzzer target for the whole language server, in process: each input is the client's
 * side of a session, given to lsp_main as its stdin (a memory file) with stdout going to
 * /dev/null, against a real git repository with a change, made once under /tmp. When the
 * input's first byte is odd, an initialize (with every client capability the server reads)
 * and an initialized come first, so the fuzzer spends its time past the handshake. The server
 * must end on its own at the end of the input, without a crash, a leak or a hang. The
 * workspace is /tmp/rl-fuzz-server-XXXXXX/ws: in the input, the six characters after
 * "rl-fuzz-server-" become this run's, so seeds made from the transcripts (tests/fuzz/seeds.py)
 * name its files with the same byte length and their frames stay whole. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/util.h"
#include "lsp/lsp.h"

static char *prelude;
static char suffix[7];      /* the XXXXXX of this run's workspace */
static int devnull = -1;

/* One framed message. */
static void frame(strbuf *sb, const char *body)
{
    sb_addf(sb, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char base[] = "/tmp/rl-fuzz-server-XXXXXX";
    if (!mkdtemp(base))
        abort();
    memcpy(suffix, base + strlen(base) - 6, 6);
    char *cmd = xasprintf(
        "set -e; cd %s; mkdir -p cache ws/csrc/kernels ws/aiter/ops; cd ws; git init -q -b main;"
        "git config user.email f@example.com; git config user.name fuzz;"
        "printf '__global__ void k(float *o, int n) {\\n    TORCH_CHECK(n > 0);\\n    o[0] = 1.0f;\\n}\\n' > csrc/kernels/k.cu;"
        "printf 'def act(x):\\n    assert x is not None\\n    return x\\n' > aiter/ops/act.py;"
        "git add -A; git commit -q -m base;"
        "printf '__global__ void k(float *o, int n) {\\n    o[0] = 2.0f; // TODO\\n}\\n' > csrc/kernels/k.cu",
        base);
    if (system(cmd) != 0)
        abort();
    free(cmd);
    char *cache = xasprintf("%s/cache", base);
    setenv("XDG_CACHE_HOME", cache, 1);
    free(cache);
    setenv("REVIEW_LSP_WAIT_LIMIT_MS", "5", 1);
    strbuf sb;
    sb_init(&sb);
    char *init = xasprintf(
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"rootUri\":\"file://%s/ws\","
        "\"capabilities\":{\"general\":{\"positionEncodings\":[\"utf-8\",\"utf-16\"]},"
        "\"window\":{\"workDoneProgress\":true,\"showDocument\":{\"support\":true}},"
        "\"workspace\":{\"configuration\":true,\"didChangeWatchedFiles\":{\"dynamicRegistration\":true},"
        "\"diagnostics\":{\"refreshSupport\":true}},\"textDocument\":{\"diagnostic\":{},"
        "\"publishDiagnostics\":{\"relatedInformation\":true,\"codeDescriptionSupport\":true},"
        "\"codeAction\":{\"codeActionLiteralSupport\":{}}}},"
        "\"initializationOptions\":{\"review\":{\"debounceMs\":0}}}}",
        base);
    frame(&sb, init);
    free(init);
    frame(&sb, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    prelude = sb_detach(&sb);
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    return devnull < 0 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int in = memfd_create("lsp-input", MFD_CLOEXEC);
    if (in < 0)
        abort();
    if (data[0] & 1) {
        size_t n = strlen(prelude);
        if (write(in, prelude, n) != (ssize_t)n)
            abort();
    }
    /* the workspace name as the seeds spell it, made this run's */
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    static const char tag[] = "rl-fuzz-server-";
    for (uint8_t *p = copy; (p = memmem(p, copy + size - p, tag, sizeof tag - 1)) != NULL;) {
        p += sizeof tag - 1;
        size_t k = (size_t)(copy + size - p) < 6 ? (size_t)(copy + size - p) : 6;
        memcpy(p, suffix, k);
    }
    if (size > 1 && write(in, copy + 1, size - 1) != (ssize_t)(size - 1))
        abort();
    free(copy);
    lseek(in, 0, SEEK_SET);
    int saved_in = dup(0), saved_out = dup(1);
    dup2(in, 0);
    dup2(devnull, 1);
    close(in);
    char name[] = "review-lsp";
    char *argv[] = {name, NULL};
    lsp_main(1, argv);
    dup2(saved_in, 0);
    dup2(saved_out, 1);
    close(saved_in);
    close(saved_out);
    return 0;
}
