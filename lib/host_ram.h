/* The host RAM sizes servers are sold with (internal; system.c holds the table): for the
 * server sizing and for what a server can train (capacity.c), which sits above the
 * pipeline and so does not include stages.h. */
#ifndef TS_HOST_RAM_H
#define TS_HOST_RAM_H

/* The host RAM a server is sold with at or above `bytes`. */
double ts_round_up_ram(double bytes);

#endif
