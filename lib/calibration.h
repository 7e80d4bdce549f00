/* The site calibration a job carries (internal; calibration.c): the file read into a
 * struct, and whether it covers a GPU. */
#ifndef TS_CALIBRATION_H
#define TS_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

/* The settings a calibration may hold (trainsize_calibration_setting_count). */
#define TS_CALIBRATION_SETTINGS_MAX 6
/* Room for its GPU list (comma-separated) and its date (YYYY-MM-DD), here and in a job's
 * settings (settings.h). */
#define TS_CALIBRATION_GPUS_MAX 256
#define TS_CALIBRATION_DATE_MAX 16

typedef struct ts_calibration_file {
    uint64_t runs;                                /* the runs it was fitted on, >= 1 */
    char date[TS_CALIBRATION_DATE_MAX];           /* YYYY-MM-DD, or "" */
    char gpus[TS_CALIBRATION_GPUS_MAX];           /* comma-separated */
    size_t settings;                              /* names[] and values[] in use */
    char names[TS_CALIBRATION_SETTINGS_MAX][48];  /* calibration settings, as the catalogue names them */
    double values[TS_CALIBRATION_SETTINGS_MAX];
    double loo_error;                             /* fit.step_error_left_out: the median error of
                                                     each run predicted by the others' fit; 0
                                                     when the file gives none */
} ts_calibration_file;

/* A calibration file's text checked whole and read into *out (the settings' ranges are
 * the catalogue's, checked when they are set). Errors name "calibration". */
int ts_calibration_read(const char *json, size_t len, ts_calibration_file *out, trainsize_error *err);

/* 1 when no calibration applies (runs 0) or its runs ran on `gpu` (a catalogue or device
 * name): `gpus` is the calibration's comma-separated list. */
int ts_calibration_covers(uint64_t runs, const char *gpus, const char *gpu);

#endif
