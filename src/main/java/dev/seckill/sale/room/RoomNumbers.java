package dev.seckill.sale.room;

/**
 * A waiting room at a glance, for the admin's dashboard.
 *
 * @param inRoom           everyone who joined
 * @param letIn            places let in from the front
 * @param waiting          in the room and not let in yet
 * @param openAdmissions   shoppers let in whose admission is neither spent nor run out: units held for them
 * @param drawn            whether the lottery is drawn (its arrival window closed)
 */
public record RoomNumbers(long inRoom, long letIn, long waiting, long openAdmissions, boolean drawn) {
}
