/* The site calibration a job carries (internal; calibration.c). */
#ifndef TS_CALIBRATION_H
#define TS_CALIBRATION_H

#include "settings.h"

/* 1 when no calibration applies or its runs ran on `gpu` (a catalogue or device name). */
int ts_calibration_covers(const ts_settings *s, const char *gpu);

#endif
