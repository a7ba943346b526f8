// nestris-asm: the build step that assembles asm/ into the cartridge image compiled into
// nestris-ai. Prints the region usage report; any failure (missing tool, syntax error, a region
// overflow) stops the build with a message, and leaves no half-written output.
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "patcher/asm_driver.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    CLI::App app{"Assemble the nestris-ai cartridge code (asm/) with ca65/ld65 and emit it as C++.", "nestris-asm"};
    nestris::AssembleOptions options;
    fs::path cpp_out, report_out;
    app.add_option("--ca65", options.ca65, "ca65 executable")->required();
    app.add_option("--ld65", options.ld65, "ld65 executable")->required();
    app.add_option("--config", options.config, "ld65 config (the free-space map)")->required();
    app.add_option("--work-dir", options.work_dir, "where objects, labels, map and dbg go")->required();
    app.add_option("-I,--include-dir", options.include_dirs, "include directories for ca65");
    app.add_option("--hook-table", options.hook_table, "the asm include declaring the hook sites (hook NAME, SITE, SIZE)");
    app.add_option("--cpp-out", cpp_out, "generated C++ source defining shipped_cart()")->required();
    app.add_option("--report-out", report_out, "region usage report (text)");
    app.add_option("sources", options.sources, "assembly sources")->required();
    // It builds the cartridge code, so it has no build id of its own: the release's version alone.
    app.set_version_flag("--version", NESTRIS_VERSION " (the cartridge's assembler: the build id is what it makes)");
    return nestris::run_program(app, argc, argv, [&]() -> int {
        try {
            const nestris::CartImage cart = nestris::assemble_cart(options);
            std::ostringstream cpp;
            nestris::write_cart_cpp(cart, cpp);
            nestris::write_text_atomically(cpp_out, cpp.str());
            const std::string report = cart.usage_report();
            if (!report_out.empty()) nestris::write_text_atomically(report_out, report);
            std::cout << "nestris-asm: cartridge usage\n" << report;
        } catch (const std::exception& e) {
            std::cerr << "nestris-asm: error: " << e.what() << "\n";
            std::error_code ec;
            fs::remove(cpp_out, ec);
            return 1;
        }
        return 0;
    });
}
