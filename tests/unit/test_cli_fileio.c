/*
 * The CLI's file layer (src/cli/fileio.c) on real files, natively and under
 * WASI: whole-file read and write, and reading a tensor file of either format
 * (.npy by its magic, TensorProto by the .pb suffix) with the errors for a
 * missing file, an unknown format and a bad file.
 *
 * Scratch files go to build/ (the tests run from the repository root, which
 * the WASI runner preopens) and are removed at the end.
 */
#include <stdio.h>

#include "cli/fileio.h"
#include "cli/npy.h"
#include "cli/tensorproto.h"

#include "../test.h"
#include "cli_check.h"

#define SCRATCH "build/tmp-test-cli-fileio"


static const float values[6] = {0.5f, -1.0f, 2.0f, 3.5f, -0.25f, 1e-3f};
static const int64_t shape[2] = {2, 3};

TEST(write_then_read_bytes) {
  static uint8_t big[200000]; /* more than one read chunk */
  for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 31 + 7);
  char err[256] = "";
  CHECK_OK(wnn_file_write(SCRATCH ".bin", big, sizeof big, err, sizeof err));
  void *data = NULL;
  size_t size = 0;
  CHECK_OK(wnn_file_read(SCRATCH ".bin", &data, &size, err, sizeof err));
  CHECK(size == sizeof big && data && memcmp(data, big, size) == 0);
  free(data);

  CHECK_OK(wnn_file_write(SCRATCH ".bin", NULL, 0, err, sizeof err));
  CHECK_OK(wnn_file_read(SCRATCH ".bin", &data, &size, err, sizeof err));
  CHECK(size == 0 && data != NULL);
  free(data);
  remove(SCRATCH ".bin");
}

TEST(reads_npy_and_pb_files) {
  void *file;
  size_t size;
  char err[256] = "";
  CHECK_OK(wnn_npy_encode(WNN_DTYPE_F32, 2, shape, values, sizeof values, &file, &size, err,
                          sizeof err));
  CHECK_OK(wnn_file_write(SCRATCH ".npy", file, size, err, sizeof err));
  /* the magic decides, not the name */
  CHECK_OK(wnn_file_write(SCRATCH "-npy.pb", file, size, err, sizeof err));
  free(file);
  CHECK_OK(wnn_tensorproto_encode(WNN_DTYPE_F32, 2, shape, values, sizeof values, "x", &file,
                                  &size, err, sizeof err));
  CHECK_OK(wnn_file_write(SCRATCH ".pb", file, size, err, sizeof err));
  free(file);

  const char *paths[3] = {SCRATCH ".npy", SCRATCH "-npy.pb", SCRATCH ".pb"};
  for (int i = 0; i < 3; i++) {
    wnn_host_tensor t;
    CHECK_OK(wnn_tensor_file_read(paths[i], &t, err, sizeof err));
    CHECK(t.dtype == WNN_DTYPE_F32 && t.ndim == 2 && t.shape[0] == 2 && t.shape[1] == 3);
    CHECK(t.nbytes == sizeof values && memcmp(t.data, values, sizeof values) == 0);
    CHECK(i == 2 ? t.name && strcmp(t.name, "x") == 0 : t.name == NULL);
    wnn_host_tensor_free(&t);
  }
  for (int i = 0; i < 3; i++) remove(paths[i]);
}

TEST(reports_file_errors) {
  wnn_host_tensor t;
  void *data;
  size_t size;
  CHECK_FAILS(wnn_file_read(SCRATCH "-missing.npy", &data, &size, err, errcap), WNN_ERR_IO,
              "cannot open");
  CHECK_FAILS(wnn_tensor_file_read(SCRATCH "-missing.npy", &t, err, errcap), WNN_ERR_IO,
              "cannot open");
  CHECK_FAILS(wnn_file_write("build/no-such-dir/x.npy", "x", 1, err, errcap), WNN_ERR_IO,
              "cannot create");

  char msg[256];
  CHECK_OK(wnn_file_write(SCRATCH ".txt", "hello", 5, msg, sizeof msg));
  CHECK_FAILS(wnn_tensor_file_read(SCRATCH ".txt", &t, err, errcap), WNN_ERR_UNSUPPORTED,
              "unknown tensor file format");
  CHECK_OK(wnn_file_write(SCRATCH ".npy", "hello", 5, msg, sizeof msg));
  CHECK_FAILS(wnn_tensor_file_read(SCRATCH ".npy", &t, err, errcap), WNN_ERR_BAD_MAGIC,
              "not a .npy file");
  CHECK_OK(wnn_file_write(SCRATCH ".pb", "\x0a\x05\x01", 3, msg, sizeof msg));
  CHECK_FAILS(wnn_tensor_file_read(SCRATCH ".pb", &t, err, errcap), WNN_ERR_TRUNCATED,
              "past the end of the message");
  remove(SCRATCH ".txt");
  remove(SCRATCH ".npy");
  remove(SCRATCH ".pb");
}

int main(void) {
  RUN(write_then_read_bytes);
  RUN(reads_npy_and_pb_files);
  RUN(reports_file_errors);
  return test_summary();
}
