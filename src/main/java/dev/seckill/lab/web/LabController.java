package dev.seckill.lab.web;

import java.util.List;

import dev.seckill.lab.LabDeductions;
import dev.seckill.lab.LabEnabled;
import dev.seckill.lab.LabRun;
import dev.seckill.lab.LabRuns;
import dev.seckill.lab.RunResult;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The lock lab (docs/lock-lab.md), admin only like all of /admin, and absent unless {@code seckill.lab.enabled=true}:
 * start a run, deduct from its stock (the load tool's request), read what happened.
 */
@LabEnabled
@RestController
class LabController {

    private final LabRuns runs;
    private final LabDeductions deductions;

    LabController(LabRuns runs, LabDeductions deductions) {
        this.runs = runs;
        this.deductions = deductions;
    }

    /** The strategies and the faults each may run under. */
    @GetMapping("/admin/lab/strategies")
    List<LabRuns.Choice> strategies() {
        return runs.choices();
    }

    /** The lease, pause, waits and fault positions every run uses. */
    @GetMapping("/admin/lab/settings")
    LabRuns.Timings settings() {
        return runs.timings();
    }

    /** @param fault {@code none} when absent */
    record RunRequest(@NotBlank @Size(max = 40) String strategy, @Size(max = 40) String fault,
            @Positive @Max(1_000_000) int stock) {
    }

    record Started(String run, String strategy, String fault, int stock) {
    }

    @PostMapping("/admin/lab/runs")
    @ResponseStatus(HttpStatus.CREATED)
    Started start(@Valid @RequestBody RunRequest request) {
        LabRun run = runs.start(request.strategy(), request.fault(), request.stock());
        return new Started(run.id(), run.strategy().id(), run.fault().id(), run.stock());
    }

    @PostMapping("/admin/lab/runs/{run}/deductions")
    LabDeductions.Deduction deduct(@PathVariable @Size(max = 40) String run) throws InterruptedException {
        return deductions.deduct(run);
    }

    @GetMapping("/admin/lab/runs/{run}")
    RunResult result(@PathVariable @Size(max = 40) String run) {
        return runs.result(run);
    }
}
