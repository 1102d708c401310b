/* goref program: the heap made ready for a frame loop. See memory.h. */
#define _DEFAULT_SOURCE
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define GD_SANITIZED 1
#endif
#endif

#define MB ((size_t)1 << 20)
#define MEMORY_MAX (256 * MB)
#define BLOCK (4 * MB) /* under every mmap threshold glibc accepts */

size_t gd_memory_for_frame(int width, int height)
{
	if (width <= 0 || height <= 0)
		return 4 * MB;
	size_t px = (size_t)width * (size_t)height;
	if (px > MEMORY_MAX / 16)
		return MEMORY_MAX;
	size_t b = 16 * px + 4 * MB;
	return b > MEMORY_MAX ? MEMORY_MAX : b;
}

#if defined(__GLIBC__) && !defined(GD_SANITIZED)
/* Maps the pages of [p, p + n) now: by the kernel in one call where it can
 * (MADV_POPULATE_WRITE, Linux 5.14 and later), then a byte written to each
 * page. The writes find the pages mapped and cost little on a real machine;
 * in a virtual machine with shadow page tables (this project's build
 * machine) the kernel's mapping is not yet the hypervisor's, and the first
 * write from the program still traps: the writes take that here, up front
 * (measured once with throwaway variants of this file under bench --vision,
 * 18 MB: populating 3.4 ms and the first frame 22 ms; writing alone 52 ms
 * and 17 ms; both 26 ms and 17 ms). */
static void map_now(char *p, size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);
	if (pg <= 0)
		pg = 4096;
#ifdef MADV_POPULATE_WRITE
	uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~((uintptr_t)pg - 1);
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE); /* else the writes do it */
#endif
	volatile char *v = p;
	for (size_t i = 0; i < n; i += (size_t)pg)
		v[i] = 0;
	if (n)
		v[n - 1] = 0;
}

int gd_memory_prepare(size_t bytes)
{
	if (bytes > MEMORY_MAX)
		bytes = MEMORY_MAX;
	/* blocks up to 32 MB (16 MB where longs are 4 bytes: glibc's bound) from
	 * the heap, and the heap's top never given back */
	if (!mallopt(M_MMAP_THRESHOLD, (int)(32 * MB)) && !mallopt(M_MMAP_THRESHOLD, (int)(16 * MB)))
		return 1;
	if (!mallopt(M_TRIM_THRESHOLD, -1))
		return 1;
	enum { NB = MEMORY_MAX / BLOCK + 1 };
	char *blk[NB];
	int nb = 0, rc = 0;
	for (size_t left = bytes; left > 0 && nb < NB;) {
		size_t n = left < BLOCK ? left : BLOCK;
		blk[nb] = malloc(n);
		if (!blk[nb]) {
			rc = -1;
			break;
		}
		map_now(blk[nb++], n);
		left -= n;
	}
	/* freed in reverse: each joins the heap's top, which is kept */
	while (nb > 0)
		free(blk[--nb]);
	return rc;
}
#else
int gd_memory_prepare(size_t bytes)
{
	(void)bytes;
	return 1;
}
#endif
