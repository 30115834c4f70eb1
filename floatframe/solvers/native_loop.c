/* The generalized-alpha step loop of floatframe's dense path in C (floatframe/solvers/native.py).

   It takes the decisions of GeneralizedAlpha.step and Scheme.advance (floatframe/solvers/genalpha.py and
   loop.py) in the same order and with the same floating-point operations: the step factors, the roundoff
   floor, the modified-Newton tests (MatrixRenewal, the contraction rate, CONTRACTION_LIMIT), the halving of
   a failed step and the retry at twice the step. The model enters only through three Functions of CasADi's
   generated code (the dense kernel of floatframe/solvers/dense.py: the Newton rows, the dense iteration
   matrix, one Newton update) and LAPACK's dgetrf, the same code the Python loop calls, so both loops
   compute the same bits. Compiled without fused multiply-adds (-ffp-contract=off), like the kernels.
   With Exudyn's Newton iteration (ResidualStop of genalpha.py) a step is residual_step, GeneralizedAlpha.
   _residual_step's decisions in the same order; its updates come from the rows already evaluated for the
   stopping test, by LAPACK's dgetrs (genalpha.newton_update), not from newton_iterate. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef long long int casadi_int;
typedef int (*casadi_function)(const double **arg, double **res, casadi_int *iw, double *w, int mem);
typedef int (*work_function)(casadi_int *sz_arg, casadi_int *sz_res, casadi_int *sz_iw, casadi_int *sz_w);
typedef void (*getrf_function)(int *m, int *n, double *a, int *lda, int *ipiv, int *info);
typedef void (*getrs_function)(char *trans, int *n, int *nrhs, double *a, int *lda, int *ipiv, double *b, int *ldb,
                               int *info);

#define CONTRACTION_LIMIT 0.5      /* genalpha.CONTRACTION_LIMIT */
#define STEP_CHANGE_TOLERANCE 1e-8 /* genalpha.STEP_CHANGE_TOLERANCE */
#define EPS 2.220446049250313e-16  /* numpy.finfo(float).eps */
#define FUNCTION_COUNT 5           /* the kernel's Functions (dense.py's DenseNewtonKernel.FUNCTION_NAMES) */

/* What a solve fixes: the kernel, the scheme, the options and the buffers (set up by native.py). */
typedef struct {
    casadi_function rows, matrix, iterate;     /* newton_rows (the rows, and q, v, abar at the iterate into
                                                  q_new, v_new, abar_new), dense_newton_matrix, newton_iterate */
    const double **rows_arg, **matrix_arg, **iterate_arg;  /* their inputs, bound to the buffers below */
    double **rows_res, **matrix_res, **iterate_res;
    casadi_int *iw;
    double *w;
    getrf_function getrf;
    long long n, m;
    double alpha_m, alpha_f, beta, gamma;
    double relative_tolerance, absolute_tolerance;
    double constraint_rows_root;   /* sqrt(max(m, 1)) */
    long long max_iterations, modified, position_rows;
    double min_step;               /* > 0: the scheme's min_step; 0: the interval's step / 2^10 */
    double refresh_cost;           /* MatrixRenewal.refresh_cost */
    const double *q_reference;
    double position_squared, velocity_squared;  /* GrowthBound's limits squared (inf: no bound) */
    /* buffers: the kernel's inputs and outputs */
    double *t_next, *scheme, *a, *lam;          /* inputs 0, 5, 8, 9 (1-4: the state's q, v, a, abar) */
    double *factors, *permutation;              /* inputs 10, 11 of newton_iterate */
    double *rows_out, *matrix_out;              /* outputs of newton_rows and dense_newton_matrix */
    double *a_new, *lam_new, *iterate_rows, *scalars, *q_new, *v_new, *abar_new;  /* of newton_iterate */
    int *pivots;
    /* the consistent start (floatframe_native_initial): the kernel's initial_system and its outputs, getrs */
    casadi_function initial;
    const double **initial_arg;
    double **initial_res;
    double *initial_matrix, *initial_rows;
    getrs_function getrs;
    /* ResidualStop (exudyn_control 0: floatframe's stop above) */
    long long exudyn_control, exudyn_jacobian, max_modified_iterations, max_restart_iterations, jacobian_per_step,
        adapt_initial_residual;
    double stop_relative_tolerance, stop_absolute_tolerance, contractivity, coordinate_factor;
    long long without_loads;         /* ResidualStop.without_loads: the matrix at rest less loads_matrix */
    double *shifted_q, *shifted_v;   /* q_n, v_n kept while the matrix is evaluated at rest (newton_iterate's and
                                        initial_system's row outputs, free in residual_step) */
    casadi_function loads;           /* loads_matrix, its output in initial_system's matrix (free during steps) */
    const double **loads_arg;
    double **loads_res;
    double *loads_out;
    int (*inputs_at)(double t);      /* NULL, or the Python callback that puts u(t) into the u buffer (the model's
                                        Input signals); nonzero: the signal failed (the step is not taken) */
    long long trapezoidal_count;     /* the kernel's trapezoidal coordinates (GeneralizedAlpha.
                                        trapezoidal_coordinates), their indices; 0 and NULL without */
    const long long *trapezoidal_rows;
} Problem;

/* What changes: the state, the iteration matrix kept by modified Newton, MatrixRenewal, the statistics
   and, after a failure, its cause. */
typedef struct {
    double t;
    double *q, *v, *a, *abar, *lam;             /* the kernel's inputs 1-4 and the multipliers */
    long long has_factorization;
    double factorization_c_q, factorization_c_v;
    double renewal_cost;
    long long renewal_steps, renewal_due;
    long long steps, newton_iterations, jacobian_evaluations, factorizations, residual_evaluations,
        rejected_steps;
    /* the last failed step: its kind (FAILURE_*), time, iteration, residual norm, last update, getrf info;
       after a failed solve also the minimum step */
    long long failure, failure_iteration, failure_info;
    double failure_time, failure_residual_norm, failure_update, failure_min_step;
    long long jacobian_due;   /* ResidualStop: the next iteration forms a new matrix */
} Run;

enum { FAILURE_NONE = 0, FAILURE_NOT_FINITE = 1, FAILURE_SINGULAR = 2, FAILURE_NOT_CONVERGED = 3, FAILURE_INPUT = 4 };
enum { RUN_DONE = 0, RUN_GROWTH = 1, RUN_FAILED = 2 };

static int all_finite(const double *x, long long size)
{
    for (long long i = 0; i < size; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

static int same_step(const Run *run, double c_q, double c_v)
{
    return fabs(c_q - run->factorization_c_q) <= STEP_CHANGE_TOLERANCE * fabs(run->factorization_c_q)
        && fabs(c_v - run->factorization_c_v) <= STEP_CHANGE_TOLERANCE * fabs(run->factorization_c_v);
}

/* The LU (DenseLU) of the matrix in problem->factors: the packed factors and the permutation matrix P
   (P[k, order[k]] = 1, column-major) that newton_iterate takes. 0, or getrf's info. */
static int lu_of_factors(const Problem *problem)
{
    int size = (int)(problem->n + problem->m), info = 0;
    problem->getrf(&size, &size, problem->factors, &size, problem->pivots, &info);
    if (info != 0) return info;
    int order[size];
    for (int i = 0; i < size; i++) order[i] = i;
    for (int i = 0; i < size; i++) {    /* the row interchanges of getrf (1-based), in turn */
        int pivot = problem->pivots[i] - 1, kept = order[i];
        order[i] = order[pivot];
        order[pivot] = kept;
    }
    memset(problem->permutation, 0, sizeof(double) * size * size);
    for (int k = 0; k < size; k++) problem->permutation[k + size * order[k]] = 1.0;
    return 0;
}

/* The iteration matrix at the iterate and its LU (lu_of_factors). 0, or getrf's info. */
static int factorize(const Problem *problem, Run *run)
{
    const long long size = problem->n + problem->m;
    run->factorizations++;
    problem->matrix(problem->matrix_arg, problem->matrix_res, problem->iw, problem->w, 0);
    memcpy(problem->factors, problem->matrix_out, sizeof(double) * size * size);
    return lu_of_factors(problem);
}

/* MatrixRenewal.renewed and step_done */
static void renewed(const Problem *problem, Run *run)
{
    run->renewal_cost = problem->refresh_cost;
    run->renewal_steps = 0;
    run->renewal_due = 0;
}

static void step_done(Run *run, long long iterations)
{
    run->renewal_due = run->renewal_steps > 0 && (double)iterations > run->renewal_cost / (double)run->renewal_steps;
    run->renewal_cost += (double)iterations;
    run->renewal_steps += 1;
}

/* The step to t converged: its state (q_new, v_new, the iterate a, abar_new, lambda) becomes the run's. */
static int accept(const Problem *problem, Run *run, double t)
{
    const long long n = problem->n, m = problem->m;
    run->steps++;
    run->t = t;
    memcpy(run->q, problem->q_new, sizeof(double) * n);
    memcpy(run->v, problem->v_new, sizeof(double) * n);
    memcpy(run->a, problem->a, sizeof(double) * n);
    memcpy(run->abar, problem->abar_new, sizeof(double) * n);
    memcpy(run->lam, problem->lam, sizeof(double) * m);
    return FAILURE_NONE;
}

static int fail(Run *run, int kind, double t, long long iteration)
{
    run->failure = kind;
    run->failure_time = t;
    run->failure_iteration = iteration;
    return kind;
}

/* DenseNewtonKernel.factorize(at_rest=True, without_loads): the matrix with a = 0, lambda = 0 where they enter
   R, at the iterate's q and v (q_n shifted by (c_q - h c_v) a, v_n by c_v a for the evaluation; on the
   trapezoidal coordinates with their c_q = h^2/4, c_v = h/2), less loads_matrix where without_loads; its LU.
   0, or getrf's info. */
static int factorize_at_rest(const Problem *problem, Run *run)
{
    const long long n = problem->n, m = problem->m, size = n + m;
    const double h = problem->scheme[0], c_q = problem->scheme[5], c_v = problem->scheme[6];
    const double shift = c_q - h * c_v;
    double *a = problem->a, *lam = problem->lam, *kept_a = problem->a_new, *kept_lam = problem->lam_new;
    memcpy(problem->shifted_q, run->q, sizeof(double) * n);
    memcpy(problem->shifted_v, run->v, sizeof(double) * n);
    memcpy(kept_a, a, sizeof(double) * n);      /* (newton_iterate's outputs: free in residual_step) */
    memcpy(kept_lam, lam, sizeof(double) * m);
    for (long long i = 0; i < n; i++) {
        run->q[i] = problem->shifted_q[i] + shift * a[i];
        run->v[i] = problem->shifted_v[i] + c_v * a[i];
        a[i] = 0.0;
    }
    if (problem->trapezoidal_count) {   /* alpha.trapezoidal_step's factors */
        const double trapezoidal_c_q = h * h * 0.25, trapezoidal_c_v = h * 0.5;
        const double trapezoidal_shift = trapezoidal_c_q - h * trapezoidal_c_v;
        for (long long k = 0; k < problem->trapezoidal_count; k++) {
            const long long i = problem->trapezoidal_rows[k];
            run->q[i] = problem->shifted_q[i] + trapezoidal_shift * kept_a[i];
            run->v[i] = problem->shifted_v[i] + trapezoidal_c_v * kept_a[i];
        }
    }
    memset(lam, 0, sizeof(double) * m);
    run->factorizations++;
    problem->matrix(problem->matrix_arg, problem->matrix_res, problem->iw, problem->w, 0);
    memcpy(problem->factors, problem->matrix_out, sizeof(double) * size * size);
    if (problem->without_loads) {
        problem->loads(problem->loads_arg, problem->loads_res, problem->iw, problem->w, 0);
        for (long long j = 0; j < n; j++)
            for (long long i = 0; i < n; i++) problem->factors[i + size * j] -= problem->loads_out[i + n * j];
    }
    memcpy(run->q, problem->shifted_q, sizeof(double) * n);
    memcpy(run->v, problem->shifted_v, sizeof(double) * n);
    memcpy(a, kept_a, sizeof(double) * n);
    memcpy(lam, kept_lam, sizeof(double) * m);
    return lu_of_factors(problem);
}

/* genalpha.newton_update (with DenseLU.solve): (a, lambda) -= A^-1 rows, from the rows at (a, lambda) (rows_out) and the LU of the
   iteration matrix (factors, pivots), by dgetrs on a copy of the rows in iterate_rows (free in residual_step).
   0, or getrs's info. */
static int update_from_rows(const Problem *problem)
{
    const long long n = problem->n, m = problem->m;
    int size = (int)(n + m), one = 1, info = 0;
    char no_transpose = 'N';
    double *update = problem->iterate_rows;
    memcpy(update, problem->rows_out, sizeof(double) * size);
    problem->getrs(&no_transpose, &size, &one, problem->factors, &size, problem->pivots, update, &size, &info);
    if (info != 0) return info;
    for (long long i = 0; i < n; i++) problem->a[i] -= update[i];
    for (long long i = 0; i < m; i++) problem->lam[i] -= update[n + i];
    return 0;
}

/* ResidualStop.norm: |[R; row_scale (C / row_scale)]| / coordinate_factor, the squares summed in order */
static double residual_norm(const Problem *problem, const double *rows, double row_scale)
{
    double first = 0.0, second = 0.0;
    for (long long i = 0; i < problem->n; i++) first += rows[i] * rows[i];
    for (long long i = problem->n; i < problem->n + problem->m; i++) second += rows[i] * rows[i];
    return sqrt(first + row_scale * row_scale * second) / problem->coordinate_factor;
}

static int all_finite_state(const Problem *problem)
{
    return all_finite(problem->a, problem->n) && all_finite(problem->lam, problem->m);
}

/* GeneralizedAlpha._residual_step: the step with Exudyn's Newton iteration; 0, or the kind of failure. */
static int residual_step(const Problem *problem, Run *run, double t, double c_q, double c_v)
{
    const long long n = problem->n, m = problem->m;
    const double row_scale = problem->position_rows ? c_q : c_v;
    const double relative = problem->stop_relative_tolerance, absolute = problem->stop_absolute_tolerance;
    memset(problem->a, 0, sizeof(double) * n);
    memset(problem->lam, 0, sizeof(double) * m);
    problem->rows(problem->rows_arg, problem->rows_res, problem->iw, problem->w, 0);
    run->residual_evaluations++;
    double initial = residual_norm(problem, problem->rows_out, row_scale);
    if (!(initial > absolute)) initial = 2.0 * absolute;
    double current = initial, last = initial;
    long long full = !problem->modified, restarted = 0, extra_iteration = 0, converged = 0, iterations = 0;
    if (problem->jacobian_per_step) run->jacobian_due = 1;
    while (!converged && iterations < problem->max_iterations) {
        iterations++;
        run->newton_iterations++;
        if (run->jacobian_due || full || !run->has_factorization || !same_step(run, c_q, c_v)) {
            run->jacobian_evaluations++;
            const int info = problem->exudyn_jacobian ? factorize_at_rest(problem, run) : factorize(problem, run);
            if (info != 0) {
                run->has_factorization = 0;
                run->failure_info = info;
                return fail(run, FAILURE_SINGULAR, t, iterations);
            }
            run->has_factorization = 1;
            run->factorization_c_q = c_q;
            run->factorization_c_v = c_v;
            run->jacobian_due = 0;
        }
        const int info = update_from_rows(problem);
        if (info != 0) {
            run->failure_info = info;
            return fail(run, FAILURE_SINGULAR, t, iterations);
        }
        problem->rows(problem->rows_arg, problem->rows_res, problem->iw, problem->w, 0);
        run->residual_evaluations++;
        current = residual_norm(problem, problem->rows_out, row_scale);
        if (problem->adapt_initial_residual && current > initial && iterations == 1) {
            initial = current;
            last = current;
        }
        converged = current <= relative * initial || current <= absolute;
        if (converged && extra_iteration) {   /* a restarted step takes one iteration more */
            extra_iteration = 0;
            converged = 0;
            continue;
        }
        if (converged) break;
        extra_iteration = 0;
        const int diverged = !(isfinite(current) && all_finite_state(problem));
        if (diverged && full) break;
        if (!full && iterations > problem->max_modified_iterations) run->jacobian_due = 1;
        int switched = 0;
        if (!full && iterations > problem->max_modified_iterations
                + problem->max_restart_iterations * (problem->jacobian_per_step ? 0 : 1)) {
            full = 1;
            switched = 1;
        }
        const double contractivity = current / last;
        last = current;
        if (!full && problem->modified && (diverged || switched
                || (contractivity > problem->contractivity && iterations > 2))) {
            run->jacobian_due = 1;
            full = full || restarted;
            if (diverged || contractivity > 2.0 || full) {   /* start the step again, from a = 0, lambda = 0 */
                restarted = 1;
                extra_iteration = 1;
                current = initial;
                last = initial;
                memset(problem->a, 0, sizeof(double) * n);
                memset(problem->lam, 0, sizeof(double) * m);
                problem->rows(problem->rows_arg, problem->rows_res, problem->iw, problem->w, 0);
                run->residual_evaluations++;
            }
        }
    }
    if (!converged) {
        run->failure_residual_norm = current;
        run->failure_update = current / initial;
        return fail(run, FAILURE_NOT_CONVERGED, t, iterations);
    }
    return accept(problem, run, t);
}

/* GeneralizedAlpha.step: one step of size h from the run's state; 0, or the kind of failure. */
static int step(const Problem *problem, Run *run, double h)
{
    const long long n = problem->n, m = problem->m;
    const double kappa = (1 - problem->alpha_f) / (1 - problem->alpha_m);
    const double c_q = h * h * problem->beta * kappa, c_v = h * problem->gamma * kappa;
    const double t = run->t + h;
    double *scheme = problem->scheme;
    problem->t_next[0] = t;
    if (problem->inputs_at != NULL && problem->inputs_at(t) != 0) return fail(run, FAILURE_INPUT, t, 0);
    scheme[0] = h;
    scheme[1] = problem->alpha_m;
    scheme[2] = problem->alpha_f;
    scheme[3] = problem->beta;
    scheme[4] = problem->gamma;
    scheme[5] = c_q;
    scheme[6] = c_v;
    scheme[7] = kappa;
    if (problem->exudyn_control) return residual_step(problem, run, t, c_q, c_v);
    memcpy(problem->a, run->a, sizeof(double) * n);
    memcpy(problem->lam, run->lam, sizeof(double) * m);
    int fresh = 0, carried = 1, has_previous = 0;
    double previous_update = 0.0, size = 0.0;
    double coordinate_scale = 0.0;
    for (long long i = 0; i < n; i++) {
        double value = fabs(run->q[i] + problem->q_reference[i]);
        if (value > coordinate_scale) coordinate_scale = value;
    }
    coordinate_scale += 1.0;
    const double roundoff = 10 * EPS * coordinate_scale * problem->constraint_rows_root
        / (problem->position_rows ? c_q : c_v);
    long long iteration;
    for (iteration = 1; iteration <= problem->max_iterations; iteration++) {
        run->residual_evaluations++;
        if (!run->has_factorization || !problem->modified || !same_step(run, c_q, c_v)
                || (iteration == 1 && run->renewal_due)) {
            problem->rows(problem->rows_arg, problem->rows_res, problem->iw, problem->w, 0);
            if (!all_finite(problem->rows_out, n + m)) return fail(run, FAILURE_NOT_FINITE, t, iteration);
            run->jacobian_evaluations++;
            int info = factorize(problem, run);
            if (info != 0) {
                run->has_factorization = 0;   /* the factors are overwritten (the step is rejected anyway) */
                run->failure_info = info;
                return fail(run, FAILURE_SINGULAR, t, iteration);
            }
            run->has_factorization = 1;
            run->factorization_c_q = c_q;
            run->factorization_c_v = c_v;
            renewed(problem, run);
            fresh = 1;
            carried = 0;
        }
        problem->iterate(problem->iterate_arg, problem->iterate_res, problem->iw, problem->w, 0);
        memcpy(problem->a, problem->a_new, sizeof(double) * n);
        memcpy(problem->lam, problem->lam_new, sizeof(double) * m);
        size = problem->scalars[0];
        const double norm_a = problem->scalars[1], square = problem->scalars[2];
        if (!(isfinite(square) || all_finite(problem->iterate_rows, n + m)))
            return fail(run, FAILURE_NOT_FINITE, t, iteration);
        run->newton_iterations++;
        double error = size;
        const double rate = has_previous && previous_update != 0.0 ? size / previous_update : 1.0;
        const int measured = has_previous && !(carried && iteration == 2);
        if (!fresh && problem->modified && size > 0.0) {
            const double assumed = measured ? rate : CONTRACTION_LIMIT;
            error = assumed < 1.0 ? size * assumed / (1.0 - assumed) : INFINITY;
        }
        const double tolerance = problem->relative_tolerance * norm_a + problem->absolute_tolerance + roundoff;
        if (error <= tolerance) break;
        if (problem->modified && has_previous && !fresh && rate > CONTRACTION_LIMIT) {
            run->has_factorization = 0;   /* slow convergence with an old matrix: refresh it */
            has_previous = 0;
            continue;
        }
        previous_update = size;
        has_previous = 1;
        fresh = 0;
    }
    if (iteration > problem->max_iterations) {
        double square = 0.0;
        for (long long i = 0; i < n + m; i++) square += problem->iterate_rows[i] * problem->iterate_rows[i];
        run->failure_residual_norm = sqrt(square);
        run->failure_update = size;
        return fail(run, FAILURE_NOT_CONVERGED, t, iteration - 1);
    }
    step_done(run, iteration);
    return accept(problem, run, t);
}

/* Scheme.advance: to t_target in steps of at most t_target - t, halving a failed step down to the minimum
   step (h / 2^10 without the scheme's own) and trying twice the step after each success. 0, or RUN_FAILED. */
static int advance(const Problem *problem, Run *run, double t_target, double h)
{
    const double min_step = problem->min_step > 0 ? problem->min_step : h / 1024.0;
    double step_size = t_target - run->t;
    while (run->t < t_target - 1e-14 * fmax(1.0, fabs(t_target))) {
        step_size = fmin(step_size, t_target - run->t);
        const int failure = step(problem, run, step_size);
        if (failure == FAILURE_INPUT) return RUN_FAILED;   /* (as in Python: the signal's error ends the solve) */
        if (failure != FAILURE_NONE) {
            run->rejected_steps++;
            run->has_factorization = 0;   /* GeneralizedAlpha.rejected */
            step_size /= 2;
            if (step_size < min_step) {
                run->failure_min_step = min_step;
                return RUN_FAILED;
            }
            continue;
        }
        step_size *= 2;
    }
    return RUN_DONE;
}

/* The output intervals k = first, ..., last of ``grid`` (count[k - 1] equal steps each, as the shared loop
   divides them); at the visits (increasing k, the last one k = last) the state (t, q, v, a, abar, lam) goes
   to a row of ``visited`` and, where ``checked``, is tested against the growth bound. Returns RUN_DONE,
   RUN_GROWTH (the last row written failed the test) or RUN_FAILED (run->failure says why); ``*written``:
   the rows written. */
int floatframe_native_run(const Problem *problem, Run *run, const double *grid, const long long *counts,
                          long long first, long long last, const long long *visits, const long long *checked,
                          double *visited, long long *written)
{
    const long long n = problem->n, m = problem->m, width = 1 + 4 * n + m;
    long long visit = 0;
    *written = 0;
    run->failure = FAILURE_NONE;
    for (long long k = first; k <= last; k++) {
        const long long count = counts[k - 1];
        const double spacing = grid[k] - grid[k - 1];
        for (long long j = 1; j <= count; j++) {
            const double target = j == count ? grid[k] : grid[k - 1] + (double)j * spacing / (double)count;
            if (advance(problem, run, target, spacing / (double)count) != RUN_DONE) return RUN_FAILED;
        }
        if (visits[visit] != k) continue;
        double *row = visited + width * visit;
        row[0] = run->t;
        memcpy(row + 1, run->q, sizeof(double) * n);
        memcpy(row + 1 + n, run->v, sizeof(double) * n);
        memcpy(row + 1 + 2 * n, run->a, sizeof(double) * n);
        memcpy(row + 1 + 3 * n, run->abar, sizeof(double) * n);
        memcpy(row + 1 + 4 * n, run->lam, sizeof(double) * m);
        *written = ++visit;
        if (checked[visit - 1]) {
            double q_squared = 0.0, v_squared = 0.0;
            for (long long i = 0; i < n; i++) {
                q_squared += run->q[i] * run->q[i];
                v_squared += run->v[i] * run->v[i];
            }
            if (!(q_squared <= problem->position_squared && v_squared <= problem->velocity_squared))
                return RUN_GROWTH;
        }
    }
    return RUN_DONE;
}

/* GeneralizedAlpha.init on the dense path: the consistent accelerations and multipliers at the run's state,
   [[M, R_lambda], [C_q, 0]] [a; lambda] = -[R(t, q, v, 0, 0); d^2C/dt^2 - C_q a] from the kernel's
   initial_system, LAPACK's dgetrf and dgetrs (DenseNewtonKernel.initial_accelerations computes the same bits
   in Python). The solution goes to run->a, run->abar and run->lam. 0; -1 where the rows are not finite; or
   getrf's or getrs's info (the caller then names the cause). */
int floatframe_native_initial(const Problem *problem, Run *run)
{
    const long long n = problem->n, m = problem->m;
    int size = (int)(n + m), one = 1, info = 0;
    char no_transpose = 'N';
    problem->t_next[0] = run->t;
    memset(run->a, 0, sizeof(double) * n);      /* a_n, abar_n, the scheme and the iterate: zero (h = 0) */
    memset(run->abar, 0, sizeof(double) * n);
    memset(problem->scheme, 0, sizeof(double) * 8);
    memset(problem->a, 0, sizeof(double) * n);
    memset(problem->lam, 0, sizeof(double) * m);
    problem->initial(problem->initial_arg, problem->initial_res, problem->iw, problem->w, 0);
    double *rows = problem->initial_rows;
    if (!all_finite(rows, size)) return -1;
    problem->getrf(&size, &size, problem->initial_matrix, &size, problem->pivots, &info);
    if (info != 0) return info;
    for (int i = 0; i < size; i++) rows[i] = -rows[i];
    problem->getrs(&no_transpose, &size, &one, problem->initial_matrix, &size, problem->pivots, rows, &size, &info);
    if (info != 0 || !all_finite(rows, size)) return info != 0 ? info : -1;
    memcpy(run->a, rows, sizeof(double) * n);
    memcpy(run->abar, rows, sizeof(double) * n);
    memcpy(run->lam, rows + n, sizeof(double) * m);
    return 0;
}

/* The kernel's compiled library at ``path`` bound into the problem: its five Functions (newton_rows,
   dense_newton_matrix, newton_iterate, initial_system, loads_matrix) and, four per Function, their work sizes
   (arguments, results, integer and real work) into ``work``. 0; 1 where the library does not load or lacks a
   Function. */
int floatframe_native_bind(Problem *problem, const char *path, casadi_int *work)
{
    static const char *names[FUNCTION_COUNT] = {"newton_rows", "dense_newton_matrix", "newton_iterate",
                                                "initial_system", "loads_matrix"};
    casadi_function *functions[FUNCTION_COUNT] = {&problem->rows, &problem->matrix, &problem->iterate,
                                                  &problem->initial, &problem->loads};
    void *library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);   /* kept loaded, as ctypes keeps its libraries */
    if (!library) return 1;
    for (int k = 0; k < FUNCTION_COUNT; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s_work", names[k]);
        work_function sizes = (work_function)dlsym(library, name);
        *functions[k] = (casadi_function)dlsym(library, names[k]);
        if (!sizes || !*functions[k]) return 1;
        sizes(work + 4 * k, work + 4 * k + 1, work + 4 * k + 2, work + 4 * k + 3);
    }
    return 0;
}

/* The buffers of a solve: one pool of doubles, each buffer at least one value, in this order (native.py's
   BUFFERS names them): the state (q, v, a, abar, lam), the kernel's inputs t_next, scheme, u, p, a, lam, the
   LU factors and permutation, newton_iterate's outputs, the outputs of newton_rows, dense_newton_matrix and
   initial_system (during the steps: loads_matrix's output and v_n kept by factorize_at_rest), and the Functions'
   real work w. */
enum { B_Q, B_V, B_A_STATE, B_ABAR, B_LAM_STATE, B_T_NEXT, B_SCHEME, B_U, B_P, B_A, B_LAM, B_FACTORS,
       B_PERMUTATION, B_A_NEW, B_LAM_NEW, B_ITERATE_ROWS, B_SCALARS, B_Q_NEW, B_V_NEW, B_ABAR_NEW, B_ROWS_OUT,
       B_MATRIX_OUT, B_INITIAL_MATRIX, B_INITIAL_ROWS, B_W, BUFFER_COUNT };

/* The layout of the buffers for the problem's n and m, ``inputs`` and ``parameters`` values and the Functions'
   ``work`` sizes (of floatframe_native_bind): each buffer's offset into the pool and its size (``layout``, two
   values a buffer) and ``sizes``: the pool's doubles, the argument and result pointers, the integer work. */
void floatframe_native_layout(const Problem *problem, long long inputs, long long parameters, const casadi_int *work,
                              long long *layout, long long *sizes)
{
    const long long n = problem->n, m = problem->m, size = n + m;
    long long real_work = 0, integer_work = 1, pointers = 0;
    for (int k = 0; k < FUNCTION_COUNT; k++) {
        pointers += work[4 * k] + work[4 * k + 1];
        if (work[4 * k + 2] > integer_work) integer_work = work[4 * k + 2];
        if (work[4 * k + 3] > real_work) real_work = work[4 * k + 3];
    }
    const long long counts[BUFFER_COUNT] = {
        n, n, n, n, m, 1, 8, inputs, parameters, n, m, size * size, size * size, n, m, size, 3, n, n, n, size,
        size * size, size * size, size, real_work};
    long long offset = 0;
    for (int b = 0; b < BUFFER_COUNT; b++) {
        layout[2 * b] = offset;
        layout[2 * b + 1] = counts[b];
        offset += counts[b] > 1 ? counts[b] : 1;
    }
    sizes[0] = offset;
    sizes[1] = pointers;
    sizes[2] = integer_work;
}

/* Points the problem, the run and the Functions' arguments and results at the buffers in ``pool`` (laid out by
   floatframe_native_layout), at the integer work ``iw`` and the pivots; ``pointers`` holds per Function its
   arguments, then its results (sizes[1] of the layout). */
void floatframe_native_wire(Problem *problem, Run *run, const casadi_int *work, const long long *layout,
                            double *pool, const double **pointers, casadi_int *iw, int *pivots)
{
    double *buffer[BUFFER_COUNT];
    for (int b = 0; b < BUFFER_COUNT; b++) buffer[b] = pool + layout[2 * b];
    /* the inputs of all five Functions; newton_iterate takes the LU factors and the permutation besides */
    const int inputs[12] = {B_T_NEXT, B_Q, B_V, B_A_STATE, B_ABAR, B_SCHEME, B_U, B_P, B_A, B_LAM, B_FACTORS,
                            B_PERMUTATION};
    const int input_counts[FUNCTION_COUNT] = {10, 10, 12, 10, 10};
    const int outputs[FUNCTION_COUNT][7] = {
        {B_ROWS_OUT, B_Q_NEW, B_V_NEW, B_ABAR_NEW}, {B_MATRIX_OUT}, {B_A_NEW, B_LAM_NEW, B_ITERATE_ROWS, B_SCALARS, B_Q_NEW, B_V_NEW, B_ABAR_NEW},
        {B_INITIAL_MATRIX, B_INITIAL_ROWS}, {B_INITIAL_MATRIX}};
    const int output_counts[FUNCTION_COUNT] = {4, 1, 7, 2, 1};
    const double ***arguments[FUNCTION_COUNT] = {&problem->rows_arg, &problem->matrix_arg, &problem->iterate_arg,
                                                 &problem->initial_arg, &problem->loads_arg};
    double ***results[FUNCTION_COUNT] = {&problem->rows_res, &problem->matrix_res, &problem->iterate_res,
                                         &problem->initial_res, &problem->loads_res};
    const double **next = pointers;
    for (int k = 0; k < FUNCTION_COUNT; k++) {
        *arguments[k] = next;
        for (casadi_int i = 0; i < work[4 * k]; i++) next[i] = i < input_counts[k] ? buffer[inputs[i]] : 0;
        next += work[4 * k];
        *results[k] = (double **)next;
        for (casadi_int i = 0; i < work[4 * k + 1]; i++) next[i] = i < output_counts[k] ? buffer[outputs[k][i]] : 0;
        next += work[4 * k + 1];
    }
    problem->iw = iw;
    problem->w = buffer[B_W];
    problem->pivots = pivots;
    problem->t_next = buffer[B_T_NEXT];
    problem->scheme = buffer[B_SCHEME];
    problem->a = buffer[B_A];
    problem->lam = buffer[B_LAM];
    problem->factors = buffer[B_FACTORS];
    problem->permutation = buffer[B_PERMUTATION];
    problem->rows_out = buffer[B_ROWS_OUT];
    problem->matrix_out = buffer[B_MATRIX_OUT];
    problem->a_new = buffer[B_A_NEW];
    problem->lam_new = buffer[B_LAM_NEW];
    problem->iterate_rows = buffer[B_ITERATE_ROWS];
    problem->scalars = buffer[B_SCALARS];
    problem->q_new = buffer[B_Q_NEW];
    problem->v_new = buffer[B_V_NEW];
    problem->abar_new = buffer[B_ABAR_NEW];
    problem->initial_matrix = buffer[B_INITIAL_MATRIX];
    problem->initial_rows = buffer[B_INITIAL_ROWS];
    problem->shifted_q = buffer[B_ITERATE_ROWS];     /* (n + m >= n values, free in residual_step) */
    problem->shifted_v = buffer[B_INITIAL_ROWS];     /* (free during the steps) */
    problem->loads_out = buffer[B_INITIAL_MATRIX];   /* ((n + m)^2 >= n^2 values, free during the steps) */
    run->q = buffer[B_Q];
    run->v = buffer[B_V];
    run->a = buffer[B_A_STATE];
    run->abar = buffer[B_ABAR];
    run->lam = buffer[B_LAM_STATE];
}
