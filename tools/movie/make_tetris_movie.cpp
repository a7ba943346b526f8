// make-tetris-movie: an FCEUX movie of one game of Tetris (USA) (movie_command.cpp).
#include "tools/movie/movie_command.hpp"

int main(int argc, char** argv) { return nestris::tools::run_make_tetris_movie(argc, argv); }
