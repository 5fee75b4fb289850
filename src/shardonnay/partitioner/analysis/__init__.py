"""What a partitioned program costs: communication bytes and time, memory, and a report."""
