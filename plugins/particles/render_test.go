package main

import "image"

func rgb(img image.Image, x, y int) (r, g, b int) {
	cr, cg, cb, _ := img.At(x, y).RGBA()
	return int(cr >> 8), int(cg >> 8), int(cb >> 8)
}
