/* goref vision: an image in memory. See image.h. */
#include "image.h"

#include <stdlib.h>
#include <string.h>

int gv_image_alloc(gv_image *img, int width, int height, int channels)
{
	if (!img)
		return GV_EINVAL;
	memset(img, 0, sizeof *img);
	if (width <= 0 || height <= 0 || (channels != 1 && channels != 3) || width > 1 << 15 || height > 1 << 15)
		return GV_EINVAL;
	size_t stride = (size_t)width * (size_t)channels;
	img->data = calloc((size_t)height, stride);
	if (!img->data)
		return GV_ENOMEM;
	img->width = width;
	img->height = height;
	img->channels = channels;
	img->stride = stride;
	return 0;
}

void gv_image_free(gv_image *img)
{
	if (!img)
		return;
	free(img->data);
	memset(img, 0, sizeof *img);
}
