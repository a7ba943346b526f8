// make-tetris-movie as a function, so that the tests run it as a user does
// (tools/movie/make_tetris_movie.cpp is the program).
#pragma once

namespace nestris::tools {
// Parses the command line and records the movie; returns the exit code (command_runner.hpp).
int run_make_tetris_movie(int argc, const char* const* argv);
}
