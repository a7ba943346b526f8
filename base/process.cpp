#include "base/process.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace nestris {

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::filesystem::path& working_dir) {
    ProcessResult result;
    if (argv.empty()) return result;
    int fds[2];
    if (pipe(fds) != 0) {
        result.output = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        result.output = std::string("fork: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return result;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(126);
        execvp(args[0], args.data());
        const char* msg = "cannot start program\n";
        (void)!write(STDERR_FILENO, msg, std::strlen(msg));
        _exit(127);
    }
    close(fds[1]);
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buffer, sizeof buffer);
        if (n > 0) {
            result.output.append(buffer, static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (result.exit_code == 127 && result.output.find("cannot start program") != std::string::npos)
        result.exit_code = -1;
    return result;
}

}  // namespace nestris
