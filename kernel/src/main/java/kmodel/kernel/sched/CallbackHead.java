package kmodel.kernel.sched;

/** include/linux/types.h: {@code struct callback_head}, a task_work item. */
public class CallbackHead {
    /** Next item on the owning task's LIFO list; written by task_work_add() before publication. */
    CallbackHead next;
    /**
     * The task whose list holds this item, or null: model bookkeeping for the double-add check
     * of {@link Sched#taskWorkAdd} (the kernel keeps none). Set by task_work_add(), cleared by
     * task_work_run() before it calls {@link #func} (which may queue the item again).
     */
    Task queuedOn;
    /** The function task_work_run() calls. */
    public TaskWorkFunc func;
    /** A name for traces. */
    public String label = "task_work";

    /** include/linux/task_work.h: {@code init_task_work()}. */
    public static void initTaskWork(CallbackHead twork, TaskWorkFunc func) {
        twork.func = func;
        twork.next = null;
    }

    /** The callback type, {@code task_work_func_t}. */
    public interface TaskWorkFunc {
        /** Runs in the target task's context. */
        void run(CallbackHead cb);
    }
}
