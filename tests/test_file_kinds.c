#define _POSIX_C_SOURCE 200809L /* mkfifo, mkdtemp, alarm, sockets */
/* Only regular files are read: a FIFO blocked fopen (and fread) until a writer came, so
 * `trainsize --hf-config FIFO` (or a Python estimate(hf_config=...)) hung forever, and a
 * device such as /dev/zero never ends. Each case must answer at once: an alarm ends the
 * test program if a call blocks (the failure a hang would be). */
#include "ts_test.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define ANSWER_WITHIN_S 10

typedef int (*file_loader)(trainsize_job *, const char *, trainsize_error *);

/* Both file loaders refuse `path` with TRAINSIZE_E_IO, naming the option, the path and
 * what the path is, and leave the job as it was. */
static void assert_refused(const char *path, const char *kind)
{
    static const struct { file_loader load; const char *option; } loaders[] = {
        {trainsize_job_load_hf_config_file, "hf-config"},
        {trainsize_job_load_gpu_file, "gpu-file"},
    };
    size_t i;
    for (i = 0; i < sizeof loaders / sizeof loaders[0]; i++) {
        trainsize_job *job = trainsize_job_new();
        trainsize_error err;
        char before[64], after[64];
        assert_non_null(job);
        assert_int_equal(trainsize_job_set(job, "model", "llama-2-7b", &err), TRAINSIZE_OK);
        trainsize_job_get(job, "layers", before, sizeof before, NULL);
        alarm(ANSWER_WITHIN_S);
        assert_int_equal(loaders[i].load(job, path, &err), TRAINSIZE_E_IO);
        alarm(0);
        assert_string_equal(err.field, loaders[i].option);
        assert_non_null(strstr(err.message, path));
        if (!strstr(err.message, kind)) fail_msg("%s: expected \"%s\" in: %s", path, kind, err.message);
        trainsize_job_get(job, "layers", after, sizeof after, NULL);
        assert_string_equal(before, after);
        trainsize_job_free(job);
    }
}

static char dir[] = "/tmp/trainsize-file-kinds.XXXXXX";

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    char path[128];
    (void)state;
    snprintf(path, sizeof path, "%s/fifo", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/socket", dir);
    unlink(path);
    return rmdir(dir);
}

static void test_fifo(void **state)
{
    char path[128];
    (void)state;
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_refused(path, "a FIFO");
}

static void test_devices_folders_sockets(void **state)
{
    struct sockaddr_un addr;
    int fd;
    (void)state;
    assert_refused("/dev/zero", "a character device");
    assert_refused("/dev/null", "a character device");
    assert_refused(dir, "a folder");
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s/socket", dir);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    assert_refused(addr.sun_path, "a socket");
    close(fd);
}

/* A regular file is still read, and one over the limit is refused before it is read. */
static void test_regular_files(void **state)
{
    char path[512];
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    FILE *f;
    (void)state;
    snprintf(path, sizeof path, "%s/hf/gpt2.json", TS_TEST_DATA_DIR);
    assert_int_equal(trainsize_job_load_hf_config_file(job, path, &err), TRAINSIZE_OK);
    snprintf(path, sizeof path, "%s/big.json", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fseek(f, TRAINSIZE_HF_CONFIG_MAX_BYTES, SEEK_SET), 0);
    fputc(' ', f);
    fclose(f);
    assert_int_equal(trainsize_job_load_hf_config_file(job, path, &err), TRAINSIZE_E_LIMIT);
    assert_non_null(strstr(err.message, "is over"));
    unlink(path);
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_devices_folders_sockets),
        cmocka_unit_test(test_regular_files),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
