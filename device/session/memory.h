/* goref program: the heap made ready for a frame loop (issue 14).
 *
 * The frame pipeline allocates its working images as it needs them (the
 * grid search's copies and vote tables, the classifier's samples), most of
 * them at the first frame, the first grid search. Memory the process has
 * never touched costs a page fault a page on first use: on this project's
 * build machine (a virtual machine) about 12 us a 4 KB page, and the first
 * frame of a 1280x720 game touched some 800 pages: 9 of its 26 ms. Later
 * frames paid again whenever the C library gave freed memory back to the
 * system and took it anew.
 *
 * gd_memory_prepare is the usual recipe of real-time programs on Linux: the
 * C library (glibc) is told to keep the memory it is given back (no
 * trimming of the heap's top, blocks up to 32 MB from the heap and not from
 * mmaps of their own), and a block of the size asked is mapped once, up
 * front (MADV_POPULATE_WRITE where the kernel has it, then a byte written
 * to each page: 18 MB in about 26 ms here, see memory.c), then freed into
 * the heap. The frames' buffers then come from pages already mapped.
 *
 * It changes the whole process's allocator: the programs that run a frame
 * loop (goref watch, replay, eval-video, bench --vision) ask for it, on the
 * thread that runs the frames (glibc gives each thread its own arena), once
 * the frame size is known. The memory stays the process's until it ends. */
#ifndef GOREF_MEMORY_H
#define GOREF_MEMORY_H

#include <stddef.h>

/* What a frame loop on frames of this size uses at most, with a margin:
 * 16 bytes a pixel and 4 MB (measured: 10.3 MB at most over a 4,487-frame
 * 1280x720 game, decoded frames included, 11.2 bytes a pixel), bounded
 * to 256 MB. */
size_t gd_memory_for_frame(int width, int height);

/* Prepares the calling thread's heap as above with bytes mapped. Returns 0
 * when done, 1 when this C library has no such settings (not glibc, or
 * under a sanitizer's allocator: nothing is changed, frames still run),
 * or -1 when the memory could not be had (the settings stay, no memory is
 * held). */
int gd_memory_prepare(size_t bytes);

#endif
