// make-tetris-movie: an FCEUX movie of one game of Tetris (USA) (make_tetris_movie.cpp).
#include "tools/harness/make_tetris_movie.hpp"

int main(int argc, char** argv) { return nestris::tools::run_make_tetris_movie(argc, argv); }
